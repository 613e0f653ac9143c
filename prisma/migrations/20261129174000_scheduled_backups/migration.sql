-- Backups that run themselves (docs/decisions/035-scheduled-backups.md): a daily job claims its
-- UTC day (slot), records where the archive went or why it failed, prunes the oldest of its own
-- archives, and a weekly restore drill records its result on the archive it checked.

-- AlterTable
ALTER TABLE "Backup" ADD COLUMN "trigger" TEXT NOT NULL DEFAULT 'command',
ADD COLUMN "slot" TEXT,
ADD COLUMN "destination" TEXT,
ADD COLUMN "failedAt" TIMESTAMP(3),
ADD COLUMN "error" TEXT,
ADD COLUMN "prunedAt" TIMESTAMP(3),
ADD COLUMN "checkedAt" TIMESTAMP(3),
ADD COLUMN "checkPassed" BOOLEAN,
ADD COLUMN "checkReport" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "Backup_slot_key" ON "Backup"("slot");

-- CreateIndex
CREATE INDEX "Backup_startedAt_idx" ON "Backup"("startedAt" DESC);
