-- A patient who meets an ended licence's embed sees "This video is no longer available"; the
-- licensee is told by e-mail instead, once per end date (issue 46).
ALTER TABLE "Subscription" ADD COLUMN "embedEndedNoticeAt" TIMESTAMP(3);
