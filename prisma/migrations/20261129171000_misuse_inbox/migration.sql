-- The misuse inbox (decision 033): a report's state, the link key its group is found by, the
-- digest's claim, and the history of each report.
ALTER TABLE "MisuseReport" ADD COLUMN "linkKey" TEXT;
ALTER TABLE "MisuseReport" ADD COLUMN "status" TEXT NOT NULL DEFAULT 'new';
ALTER TABLE "MisuseReport" ADD COLUMN "digestedAt" TIMESTAMP(3);
ALTER TABLE "MisuseReport" ADD COLUMN "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;
ALTER TABLE "MisuseReport" ADD CONSTRAINT "MisuseReport_status_check" CHECK ("status" IN ('new', 'investigating', 'resolved', 'dismissed'));

-- Reports sent before the inbox existed: grouped by the same key the code computes (no scheme,
-- no www., no fragment, no trailing slash, lower case), and never digested (the first digest
-- would otherwise mail every old report): they wait in the inbox as new.
UPDATE "MisuseReport"
SET "linkKey" = NULLIF(lower(regexp_replace(regexp_replace(regexp_replace(btrim("link"), '#.*$', ''), '^[a-zA-Z][a-zA-Z0-9+.-]*://(www\.)?', ''), '/+$', '')), ''),
    "digestedAt" = CURRENT_TIMESTAMP
WHERE "link" IS NOT NULL;
UPDATE "MisuseReport" SET "digestedAt" = CURRENT_TIMESTAMP WHERE "digestedAt" IS NULL;

CREATE INDEX "MisuseReport_status_createdAt_idx" ON "MisuseReport"("status", "createdAt");
CREATE INDEX "MisuseReport_linkKey_idx" ON "MisuseReport"("linkKey");
CREATE INDEX "MisuseReport_digestedAt_idx" ON "MisuseReport"("digestedAt");

CREATE TABLE "MisuseReportEvent" (
    "id" UUID NOT NULL,
    "reportId" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "fromStatus" TEXT,
    "toStatus" TEXT,
    "note" TEXT NOT NULL,
    "actorId" UUID,
    "actorEmail" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MisuseReportEvent_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "MisuseReportEvent_reportId_createdAt_idx" ON "MisuseReportEvent"("reportId", "createdAt");
ALTER TABLE "MisuseReportEvent" ADD CONSTRAINT "MisuseReportEvent_reportId_fkey" FOREIGN KEY ("reportId") REFERENCES "MisuseReport"("id") ON DELETE CASCADE ON UPDATE CASCADE;
