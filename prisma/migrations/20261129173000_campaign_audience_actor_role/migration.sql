-- A campaign keeps the filters its audience was narrowed by (licence held, signup range), and an
-- audit row the role its actor had when it was written (decision 036). Existing audit rows keep
-- a null role: the log is append-only (its trigger refuses UPDATE), so the list shows the
-- account's role now for them, marked as such.

-- AlterTable
ALTER TABLE "EmailCampaign" ADD COLUMN "audienceFilters" JSONB;

-- AlterTable
ALTER TABLE "AuditLog" ADD COLUMN "actorRole" TEXT;
