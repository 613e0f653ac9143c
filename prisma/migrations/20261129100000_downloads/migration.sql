-- Licence packages are built from the pipeline's files (issue 45): each file's checksums, taken
-- once, let the ZIP be laid out before it is read; and every download is recorded.
ALTER TABLE "StoredObject" ADD COLUMN "sha256" TEXT;
ALTER TABLE "StoredObject" ADD COLUMN "crc32" INTEGER;
ALTER TABLE "MediaRendition" ADD COLUMN "sha256" TEXT;
ALTER TABLE "MediaRendition" ADD COLUMN "crc32" INTEGER;

-- CreateTable
CREATE TABLE "Download" (
    "id" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "animationId" UUID NOT NULL,
    "subscriptionId" UUID,
    "file" TEXT NOT NULL,
    "bytes" BIGINT NOT NULL,
    "rangeStart" BIGINT,
    "complete" BOOLEAN NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Download_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Download_userId_createdAt_idx" ON "Download"("userId", "createdAt" DESC);
CREATE INDEX "Download_animationId_createdAt_idx" ON "Download"("animationId", "createdAt" DESC);
CREATE INDEX "Download_subscriptionId_idx" ON "Download"("subscriptionId");

-- AddForeignKey
ALTER TABLE "Download" ADD CONSTRAINT "Download_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "Download" ADD CONSTRAINT "Download_animationId_fkey" FOREIGN KEY ("animationId") REFERENCES "Animation"("id") ON DELETE CASCADE ON UPDATE CASCADE;
