-- Decision 032: an animation is a draft until published. Existing rows keep their isActive
-- (a published animation stays published); new ones are written as drafts by the app.
ALTER TABLE "Animation" ADD COLUMN "publishWhenReady" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "Animation" ADD COLUMN "durationProbed" BOOLEAN NOT NULL DEFAULT false;
