-- The admin's track list shows each caption file's size and cue count, kept when it is uploaded.

-- AlterTable
ALTER TABLE "AnimationCaption" ADD COLUMN "size" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "cueCount" INTEGER NOT NULL DEFAULT 0;
