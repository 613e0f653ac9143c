-- What an animation's media actually are, so pages claim only that: the full video's frame
-- size (probed when it is stored) and the video formats inside its download package.

ALTER TABLE "Animation" ADD COLUMN "videoWidth" INTEGER;
ALTER TABLE "Animation" ADD COLUMN "videoHeight" INTEGER;
ALTER TABLE "Animation" ADD COLUMN "downloadFormats" TEXT[] DEFAULT ARRAY[]::TEXT[];
