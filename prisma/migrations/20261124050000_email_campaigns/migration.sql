-- Bulk e-mail campaigns (issue 12). A campaign's recipients are resolved once, when it starts,
-- into one EmailLog row each (status 'pending'); the campaign job claims pending rows in
-- batches ('sending'), sends, and marks them 'sent' or 'failed'. A restart finds the claimed
-- rows of the dead run and fails them rather than send twice.
-- Totals for the e-mail manager's statistics come from counters kept by triggers, so a view
-- never counts the log, which grows by every recipient of every campaign.

CREATE TYPE "CampaignStatus" AS ENUM ('queued', 'sending', 'finished', 'canceled');

CREATE TABLE "EmailCampaign" (
    "id" UUID NOT NULL,
    "subject" TEXT NOT NULL,
    "htmlContent" TEXT NOT NULL,
    "textContent" TEXT NOT NULL,
    "audience" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "status" "CampaignStatus" NOT NULL DEFAULT 'queued',
    "total" INTEGER NOT NULL DEFAULT 0,
    "sent" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "createdById" UUID,
    "createdByEmail" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "EmailCampaign_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "EmailCampaign_createdAt_idx" ON "EmailCampaign"("createdAt" DESC);
CREATE INDEX "EmailCampaign_status_idx" ON "EmailCampaign"("status");

ALTER TABLE "EmailLog" ADD COLUMN "campaignId" UUID;
ALTER TABLE "EmailLog" ADD CONSTRAINT "EmailLog_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "EmailCampaign"("id") ON DELETE SET NULL ON UPDATE CASCADE;
CREATE INDEX "EmailLog_campaignId_status_idx" ON "EmailLog"("campaignId", "status");
CREATE INDEX "EmailLog_status_sentAt_idx" ON "EmailLog"("status", "sentAt");

CREATE FUNCTION "email_log_count_track"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  all_delta BIGINT := 0;
  sent_delta BIGINT := 0;
BEGIN
  -- Each branch names only the transition tables its event has.
  IF TG_OP = 'INSERT' THEN
    SELECT count(*), count(*) FILTER (WHERE "status" = 'sent') INTO all_delta, sent_delta FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT -count(*), -count(*) FILTER (WHERE "status" = 'sent') INTO all_delta, sent_delta FROM old_rows;
  ELSE
    SELECT (SELECT count(*) FILTER (WHERE "status" = 'sent') FROM new_rows) - (SELECT count(*) FILTER (WHERE "status" = 'sent') FROM old_rows) INTO sent_delta;
  END IF;
  IF all_delta <> 0 THEN
    UPDATE "RowCount" SET "count" = "count" + all_delta WHERE "table" = 'EmailLog';
  END IF;
  IF sent_delta <> 0 THEN
    UPDATE "RowCount" SET "count" = "count" + sent_delta WHERE "table" = 'EmailLog:sent';
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "EmailLog_count_insert" AFTER INSERT ON "EmailLog" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "email_log_count_track"();
CREATE TRIGGER "EmailLog_count_update" AFTER UPDATE ON "EmailLog" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "email_log_count_track"();
CREATE TRIGGER "EmailLog_count_delete" AFTER DELETE ON "EmailLog" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "email_log_count_track"();

INSERT INTO "RowCount" ("table", "count") VALUES
  ('EmailLog', (SELECT count(*) FROM "EmailLog")),
  ('EmailLog:sent', (SELECT count(*) FROM "EmailLog" WHERE "status" = 'sent'));
