import { getDb } from "~/lib/db.server.ts";
import { getEnv } from "~/lib/env.server.ts";
import { CAMPAIGN_SLICE_MS, jobQueue, measuredJob, QUEUES, stopJobQueue, superviseJobs } from "~/lib/jobs.server.ts";
import { logger } from "~/lib/logger.server.ts";
import { purgeRateLimits } from "~/lib/rate-limit.server.ts";
import { purgeExpiredCredentials } from "./auth/credentials.server.ts";
import { runBillingSweep } from "./commerce/billing-sweep.server.ts";
import { runCampaign } from "./admin/email-campaigns.server.ts";
import { runMediaJob, scanMediaJobs } from "./media/media-jobs.server.ts";
import { rollUpPlaybackEvents } from "./analytics/playback-rollup.server.ts";
import { runBackupDrill, runScheduledBackup } from "./admin/backups.server.ts";
import { sendMisuseDigest } from "./admin/misuse-reports.server.ts";

// The server's workers for the job queue (lib/jobs.server.ts): campaigns, transcodes, the
// hourly billing sweep and purge, the playback rollup, the misuse digest. pg-boss hands each job to one worker across all instances; its schedules
// fire once per hour across all of them too.

/** Expired sessions, tokens and rate-limit rows are deleted, then the embedded database gets PostgreSQL's autovacuum work. */
async function purge() {
  const [credentials, limits] = await Promise.all([purgeExpiredCredentials(), purgeRateLimits()]);
  logger.info({ ...credentials, rateLimits: limits }, "purged expired rows");
  await getDb().maintain();
}

/** The daily backup's handler (also run by the tests' second worker): a day already backed up is skipped. */
export const backupJob = measuredJob(QUEUES.backup, async () => {
  const result = await runScheduledBackup();
  if (result.ran) logger.info(result, "scheduled backup written");
});

/** The weekly restore drill's handler: its result is recorded on the archive's row, a failed drill logged. */
export const backupCheckJob = measuredJob(QUEUES.backupCheck, async () => {
  const drill = await runBackupDrill();
  if (drill && !drill.passed) logger.error({ archive: drill.archive, report: drill.report }, "restore drill failed");
  else if (drill) logger.info({ archive: drill.archive }, "restore drill passed");
});

/**
 * pg-boss's throttle beside the day's claim in the Backup table: one scheduled send per 12-hour
 * window (the longest pg-boss allows while it archives finished jobs after 12 hours); the claim
 * makes it one archive per UTC day.
 */
export const BACKUP_SINGLETON = { singletonKey: "scheduled", singletonSeconds: 12 * 60 * 60 };

/** The at-start billing sweep and purge run once per slot of this length (clock-aligned) across instances. */
export const AT_START_SLOT_SECONDS = 60 * 60;

export async function startJobWorkers({ pollingIntervalSeconds = 1 } = {}) {
  superviseJobs();
  const boss = await jobQueue();
  const stopping = new AbortController();

  await boss.work<{ campaignId: string }>(
    QUEUES.campaign,
    { pollingIntervalSeconds },
    measuredJob(QUEUES.campaign, async ([job]) => {
      const { campaignId } = job!.data;
      const more = await runCampaign(campaignId, { signal: stopping.signal, maxMs: CAMPAIGN_SLICE_MS });
      // The rest goes on in a job of its own: this one ends well before pg-boss would expire it.
      if (more) await boss.send(QUEUES.campaign, { campaignId }, { singletonKey: campaignId });
    }),
  );
  await boss.work(
    QUEUES.billingSweep,
    { pollingIntervalSeconds: 5 },
    measuredJob(QUEUES.billingSweep, async () => {
      logger.info(await runBillingSweep(), "billing sweep");
    }),
  );
  await boss.work(QUEUES.purge, { pollingIntervalSeconds: 5 }, measuredJob(QUEUES.purge, purge));
  await boss.work(QUEUES.backup, { pollingIntervalSeconds: 5 }, backupJob);
  await boss.work(QUEUES.backupCheck, { pollingIntervalSeconds: 5 }, backupCheckJob);
  // MEDIA_CONCURRENCY workers, each running one transcode at a time (0 on an instance that
  // should stay responsive while others encode).
  for (let i = 0; i < getEnv().MEDIA_CONCURRENCY; i++) {
    await boss.work<{ mediaJobId: string }>(
      QUEUES.mediaTranscode,
      { pollingIntervalSeconds },
      measuredJob(QUEUES.mediaTranscode, async ([job]) => {
        await runMediaJob(job!.data.mediaJobId, { signal: stopping.signal });
      }),
    );
  }
  await boss.work(
    QUEUES.mediaScan,
    { pollingIntervalSeconds: 5 },
    measuredJob(QUEUES.mediaScan, async () => {
      const scanned = await scanMediaJobs();
      if (scanned.queued || scanned.resent) logger.info(scanned, "media scan queued transcodes");
    }),
  );
  await boss.work(
    QUEUES.playbackRollup,
    { pollingIntervalSeconds: 5 },
    measuredJob(QUEUES.playbackRollup, async () => {
      logger.info(await rollUpPlaybackEvents(), "playback rollup");
    }),
  );
  await boss.work(
    QUEUES.misuseDigest,
    { pollingIntervalSeconds: 5 },
    measuredJob(QUEUES.misuseDigest, async () => {
      const digest = await sendMisuseDigest();
      if (digest.reports) logger.info(digest, "misuse digest sent");
    }),
  );

  // The embedded database's vacuum and planner statistics belong to this process's database,
  // not to a cluster-wide job: they run at every start (a bulk import before the start would
  // otherwise leave the planner without statistics until the hourly purge).
  void getDb()
    .maintain()
    .catch((error) => logger.error({ err: error }, "database maintenance at start failed"));

  // Hourly across every instance, and once at start. The at-start run is one per clock hour
  // across instances (pg-boss throttling: one job per key and hour slot), so instances started
  // together, or one by one in a rolling deploy, sweep once and not once each; the hourly
  // schedule still runs at :05 and :35.
  await boss.schedule(QUEUES.billingSweep, "5 * * * *");
  await boss.schedule(QUEUES.purge, "35 * * * *");
  await boss.schedule(QUEUES.mediaScan, "*/10 * * * *");
  // Days before today are read from the rollup: at most ten minutes behind after midnight.
  await boss.schedule(QUEUES.playbackRollup, "*/10 * * * *");
  // Backups (decision 035): "off" removes a schedule an earlier start made.
  const env = getEnv();
  if (env.BACKUP_SCHEDULE === "off") await boss.unschedule(QUEUES.backup);
  else await boss.schedule(QUEUES.backup, env.BACKUP_SCHEDULE, {}, { tz: "UTC", ...BACKUP_SINGLETON });
  if (env.BACKUP_CHECK_SCHEDULE === "off") await boss.unschedule(QUEUES.backupCheck);
  else await boss.schedule(QUEUES.backupCheck, env.BACKUP_CHECK_SCHEDULE, {}, { tz: "UTC" });
  // New misuse reports reach the admins at most an hour late, in one mail per hour at most.
  await boss.schedule(QUEUES.misuseDigest, "50 * * * *");
  await boss.send(QUEUES.billingSweep, {}, { singletonKey: "start", singletonSeconds: AT_START_SLOT_SECONDS });
  await boss.send(QUEUES.purge, {}, { singletonKey: "start", singletonSeconds: AT_START_SLOT_SECONDS });
  await boss.send(QUEUES.mediaScan, {}, { singletonKey: "start", singletonMinutes: 1 });
  await boss.send(QUEUES.playbackRollup, {}, { singletonKey: "start", singletonMinutes: 1 });

  return {
    /** Ends running campaigns between batches (their rest stays queued), then stops the workers. */
    async stop() {
      stopping.abort();
      await stopJobQueue();
    },
  };
}
