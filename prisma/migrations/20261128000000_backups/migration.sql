-- Each run of `npm run backup` (scripts/backup.ts): the admin dashboard shows the latest finished one.

-- CreateTable
CREATE TABLE "Backup" (
    "id" UUID NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),
    "databaseKind" TEXT NOT NULL,
    "storage" TEXT NOT NULL,
    "objectCount" INTEGER NOT NULL,
    "objectBytes" BIGINT NOT NULL,
    "archiveBytes" BIGINT,
    "archiveName" TEXT NOT NULL,

    CONSTRAINT "Backup_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Backup_finishedAt_idx" ON "Backup"("finishedAt" DESC);
