-- Playback analytics (issue 46, "What the clinic learns"): the players' events, append-only;
-- their daily rollup; the day's viewer-hash salt; the rollup's progress.
CREATE TABLE "PlaybackEvent" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "subscriptionId" UUID NOT NULL,
    "animationId" UUID NOT NULL,
    "sourceKind" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "viewerHash" TEXT NOT NULL,
    "playId" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "fraction" REAL NOT NULL,
    CONSTRAINT "PlaybackEvent_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "PlaybackEvent_at_idx" ON "PlaybackEvent"("at");
CREATE INDEX "PlaybackEvent_subscriptionId_at_idx" ON "PlaybackEvent"("subscriptionId", "at");

-- Append-only, like the audit log: only the retention purge (whole old rows) may delete.
CREATE FUNCTION "PlaybackEvent_no_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'PlaybackEvent is append-only';
END;
$$;
CREATE TRIGGER "PlaybackEvent_append_only" BEFORE UPDATE ON "PlaybackEvent"
  FOR EACH ROW EXECUTE FUNCTION "PlaybackEvent_no_update"();

CREATE TABLE "PlaybackDaily" (
    "day" DATE NOT NULL,
    "subscriptionId" UUID NOT NULL,
    "animationId" UUID NOT NULL,
    "sourceKind" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "plays" INTEGER NOT NULL,
    "viewers" INTEGER NOT NULL,
    "watchedSum" DOUBLE PRECISION NOT NULL,
    "reached25" INTEGER NOT NULL,
    "reached50" INTEGER NOT NULL,
    "reached75" INTEGER NOT NULL,
    "reached100" INTEGER NOT NULL,
    CONSTRAINT "PlaybackDaily_pkey" PRIMARY KEY ("day", "subscriptionId", "animationId", "sourceKind", "source")
);
CREATE INDEX "PlaybackDaily_subscriptionId_day_idx" ON "PlaybackDaily"("subscriptionId", "day");

CREATE TABLE "PlaybackDaySalt" (
    "day" DATE NOT NULL,
    "salt" TEXT NOT NULL,
    CONSTRAINT "PlaybackDaySalt_pkey" PRIMARY KEY ("day")
);

CREATE TABLE "PlaybackRollupMark" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "lastEventId" BIGINT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "PlaybackRollupMark_pkey" PRIMARY KEY ("id")
);
