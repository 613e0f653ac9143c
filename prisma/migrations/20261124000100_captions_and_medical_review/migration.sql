-- Medical video carries captions and a medical review date: a caption track per language
-- (its cue text kept as the transcript), and when the animation was last reviewed and is next due.

-- AlterTable
ALTER TABLE "Animation" ADD COLUMN "medicallyReviewedAt" TIMESTAMP(3),
ADD COLUMN "reviewDueAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "AnimationCaption" (
    "id" UUID NOT NULL,
    "animationId" UUID NOT NULL,
    "language" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "transcript" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AnimationCaption_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Animation_reviewDueAt_idx" ON "Animation"("reviewDueAt");
CREATE UNIQUE INDEX "AnimationCaption_animationId_language_key" ON "AnimationCaption"("animationId", "language");
CREATE INDEX "AnimationCaption_path_idx" ON "AnimationCaption"("path");

-- AddForeignKey
ALTER TABLE "AnimationCaption" ADD CONSTRAINT "AnimationCaption_animationId_fkey" FOREIGN KEY ("animationId") REFERENCES "Animation"("id") ON DELETE CASCADE ON UPDATE CASCADE;
