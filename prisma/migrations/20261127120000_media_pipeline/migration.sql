-- The media pipeline's output (issue 24): sets of renditions per master video, the set each
-- animation plays, and a transcode job's per-step progress.

ALTER TABLE "MediaJob" ADD COLUMN "progress" JSONB;

CREATE TABLE "MediaSet" (
    "id" UUID NOT NULL,
    "animationId" UUID NOT NULL,
    "sourcePath" TEXT NOT NULL,
    "sourceWidth" INTEGER NOT NULL,
    "sourceHeight" INTEGER NOT NULL,
    "duration" DOUBLE PRECISION NOT NULL,
    "frameRate" DOUBLE PRECISION NOT NULL,
    "hasAudio" BOOLEAN NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "MediaSet_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "MediaSet_animationId_idx" ON "MediaSet"("animationId");
ALTER TABLE "MediaSet" ADD CONSTRAINT "MediaSet_animationId_fkey" FOREIGN KEY ("animationId") REFERENCES "Animation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "MediaRendition" (
    "id" UUID NOT NULL,
    "setId" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "file" TEXT NOT NULL,
    "width" INTEGER,
    "height" INTEGER,
    "bitrate" INTEGER,
    "codec" TEXT NOT NULL,
    "bytes" BIGINT NOT NULL,
    "duration" DOUBLE PRECISION,
    CONSTRAINT "MediaRendition_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "MediaRendition_setId_file_key" ON "MediaRendition"("setId", "file");
CREATE INDEX "MediaRendition_setId_kind_idx" ON "MediaRendition"("setId", "kind");
ALTER TABLE "MediaRendition" ADD CONSTRAINT "MediaRendition_setId_fkey" FOREIGN KEY ("setId") REFERENCES "MediaSet"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "Animation" ADD COLUMN "mediaSetId" UUID;
CREATE UNIQUE INDEX "Animation_mediaSetId_key" ON "Animation"("mediaSetId");
ALTER TABLE "Animation" ADD CONSTRAINT "Animation_mediaSetId_fkey" FOREIGN KEY ("mediaSetId") REFERENCES "MediaSet"("id") ON DELETE SET NULL ON UPDATE CASCADE;
