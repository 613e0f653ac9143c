-- A practice's logo, shown on its patient links (issue 46).
ALTER TABLE "Practice" ADD COLUMN "logo" TEXT;
CREATE INDEX "Practice_logo_idx" ON "Practice"("logo");
