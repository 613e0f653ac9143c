import { setTimeout } from "node:timers/promises";
import PgBoss from "pg-boss";
import { getDb } from "./db.server.ts";
import { logger } from "./logger.server.ts";
import { metrics, timed } from "./metrics.server.ts";

// Durable background jobs on pg-boss (decision 010), on the app's own database connection:
// the embedded PGlite instance or the PostgreSQL pool (pg-boss's `db` option), so jobs live in
// the same database as the data they work on, survive a restart, are retried, and each is
// fetched by one worker across every instance (SELECT … FOR UPDATE SKIP LOCKED).
//
// Any process may send jobs; only the server runs workers (startJobWorkers in server.ts).

export const QUEUES = {
  /** One bulk e-mail campaign; one run at a time per campaign (singleton policy, key = campaign id). */
  campaign: "email-campaign",
  /** Expired subscriptions and renewal reminders (hourly, and at start). */
  billingSweep: "billing-sweep",
  /** Expired sessions, tokens and rate-limit rows; the embedded database's vacuum (hourly, and at start). */
  purge: "purge",
  /** One transcode of a master into its media set (services/media/media-jobs.server.ts); key = the MediaJob row. */
  mediaTranscode: "media-transcode",
  /** Transcodes nobody queued, and rows the queue may have lost (every ten minutes, and at start). */
  mediaScan: "media-scan",
  /** Playback events into their daily numbers, and the retention purge (every ten minutes, and at start). */
  playbackRollup: "playback-rollup",
  /** The daily backup (BACKUP_SCHEDULE; one archive per UTC day, claimed in the Backup table: decision 035). */
  backup: "backup",
  /** The weekly restore drill on the newest archive (BACKUP_CHECK_SCHEDULE). */
  backupCheck: "backup-check",
  /** The admins' e-mail digest of new misuse reports (hourly); each report is listed once. */
  misuseDigest: "misuse-digest",
} as const;

export type QueueName = keyof typeof QUEUES;

type Boss = PgBoss;
let started: Promise<Boss> | undefined;
let supervised = false;

/**
 * PostgreSQL's answers when instances starting together on a fresh database make pg-boss's
 * schema or the same queue at once, both seen in the two-instance test: the schema's
 * `CREATE SCHEMA IF NOT EXISTS` fails on pg_namespace's unique index (23505) although pg-boss
 * holds an advisory lock around it, and two queue creations (each attaches a partition to the
 * job table) end one as a deadlock (40P01). The other codes: the object was made meanwhile.
 */
const CREATE_RACE_CODES = new Set(["23505", "40P01", "42P06", "42P07", "42710"]);
const isCreateRace = (error: unknown) => CREATE_RACE_CODES.has((error as { code?: string }).code ?? "");
/** Apart, so two instances do not collide again. */
const backOff = (attempt: number) => setTimeout(50 * attempt + Math.floor(Math.random() * 100));

/** pg-boss, started: its schema installed (or found) on the app's database. */
async function startBoss(): Promise<Boss> {
  const db = getDb();
  const supervise = supervised;
  for (let attempt = 1; ; attempt++) {
    const boss = new PgBoss({
      db: db.jobs as PgBoss.Db,
      schema: db.jobs.schema,
      // Maintenance (expiring the jobs of a dead process so they are retried, archiving) and the
      // cron clock run where the workers run: the server. A script or a test only sends.
      supervise,
      schedule: supervise,
      maintenanceIntervalSeconds: 30,
    });
    boss.on("error", (error) => logger.error({ err: error }, "job queue error"));
    try {
      return await boss.start();
    } catch (error) {
      // The loser's install rolled back (before any timer started) and the schema is there
      // now. A pg-boss that failed to start cannot start again: the next attempt is a new one.
      if (attempt >= 3 || !isCreateRace(error)) throw error;
      await backOff(attempt);
    }
  }
}

async function openBoss(): Promise<Boss> {
  const boss = await startBoss();
  // One after the other: creating queues at once deadlocks on PostgreSQL (each adds a partition).
  for (const queue of [
    { name: QUEUES.campaign, policy: "singleton", retryLimit: 20, retryDelay: 5, expireInSeconds: CAMPAIGN_JOB_EXPIRY_SECONDS },
    { name: QUEUES.billingSweep, policy: "singleton", retryLimit: 2, retryDelay: 60, expireInSeconds: 15 * 60 },
    { name: QUEUES.purge, policy: "singleton", retryLimit: 2, retryDelay: 60, expireInSeconds: 15 * 60 },
    // A long 4K master may transcode for an hour: the row's own lock, refreshed every 30 s, tells
    // a dead run from a slow one (the scan resends a stale row), not the queue's expiry.
    { name: QUEUES.mediaTranscode, policy: "singleton", retryLimit: 3, retryDelay: 5, expireInSeconds: MEDIA_JOB_EXPIRY_SECONDS },
    { name: QUEUES.mediaScan, policy: "singleton", retryLimit: 1, retryDelay: 60, expireInSeconds: 15 * 60 },
    { name: QUEUES.playbackRollup, policy: "singleton", retryLimit: 1, retryDelay: 60, expireInSeconds: 15 * 60 },
    // A failed backup (a full disk, the bucket away) is tried again three times, ten minutes apart.
    { name: QUEUES.backup, policy: "singleton", retryLimit: 3, retryDelay: 600, expireInSeconds: BACKUP_JOB_EXPIRY_SECONDS },
    { name: QUEUES.backupCheck, policy: "singleton", retryLimit: 0, expireInSeconds: BACKUP_JOB_EXPIRY_SECONDS },
    { name: QUEUES.misuseDigest, policy: "singleton", retryLimit: 3, retryDelay: 300, expireInSeconds: 15 * 60 },
  ] satisfies PgBoss.Queue[]) {
    await ensureQueue(boss, queue);
  }
  return boss;
}

async function ensureQueue(boss: Boss, queue: PgBoss.Queue) {
  for (let attempt = 1; ; attempt++) {
    if (await boss.getQueue(queue.name)) return;
    try {
      await boss.createQueue(queue.name, queue);
      return;
    } catch (error) {
      if (attempt >= 5 || !isCreateRace(error)) throw error;
      await backOff(attempt);
    }
  }
}

/**
 * A campaign job sends for at most this long, then hands the rest to a new job of the same
 * campaign. It is well under the job's expiry, so a job that stops reporting (its process
 * died) is the only one pg-boss expires and retries: after a crash, a campaign resumes within
 * CAMPAIGN_JOB_EXPIRY_SECONDS.
 */
export const CAMPAIGN_SLICE_MS = 30_000;
export const CAMPAIGN_JOB_EXPIRY_SECONDS = 120;
export const MEDIA_JOB_EXPIRY_SECONDS = 3 * 60 * 60;
/** A backup or drill of a large library may take a while; a run cut off longer ago is retried (and its day's claim taken over). */
export const BACKUP_JOB_EXPIRY_SECONDS = 2 * 60 * 60;

/** The server's queue also runs maintenance and the schedules; call before the first jobQueue(). */
export function superviseJobs() {
  supervised = true;
}

/** The process's job queue (started once; the first call creates pg-boss's tables). */
export function jobQueue(): Promise<Boss> {
  started ??= openBoss().catch((error) => {
    started = undefined;
    throw error;
  });
  return started;
}

/**
 * A worker's handler, timed per queue (medanim_job_duration_seconds) and counted when it throws
 * (medanim_job_failures_total; pg-boss then retries it). Every handler of startJobWorkers goes
 * through it, so a new queue is measured the day it gets a worker.
 */
export function measuredJob<Args extends unknown[], R>(queue: string, handler: (...args: Args) => Promise<R>) {
  return (...args: Args) =>
    timed(
      (seconds, error) => {
        metrics().jobDuration.observe({ queue, outcome: error ? "failed" : "completed" }, seconds);
        if (error) metrics().jobFailures.inc({ queue });
      },
      () => handler(...args),
    );
}

/** Stops the queue's workers (waiting for running jobs up to `timeoutMs`) and forgets it. */
export async function stopJobQueue(timeoutMs = 20_000) {
  const pending = started;
  started = undefined;
  const boss = await pending?.catch(() => undefined);
  await boss?.stop({ graceful: true, wait: true, timeout: timeoutMs, close: false });
}

/** A Prisma transaction, for a job that must commit (or not) with the rows it is about. */
type Tx = { $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T> };

/**
 * Sends a job. With `tx`, through that Prisma transaction (pg-boss's `db` option): the job exists
 * exactly when the transaction's rows do. The queue must be started (jobQueue()) before the
 * transaction begins: on PGlite, starting it inside would wait for the transaction's own lock.
 */
export async function sendJob(
  queue: QueueName,
  data: object,
  { singletonKey, tx, priority }: { singletonKey?: string; tx?: Tx; /** Higher runs first (pg-boss's order); 0 by default. */ priority?: number } = {},
) {
  const boss = await jobQueue();
  const db = tx ? { executeSql: async (text: string, values: unknown[] = []) => ({ rows: await tx.$queryRawUnsafe<unknown[]>(text, ...values) }) } : undefined;
  return boss.send(QUEUES[queue], data, { singletonKey, ...(priority ? { priority } : {}), ...(db ? { db } : {}) });
}

export function enqueueCampaign(campaignId: string) {
  return sendJob("campaign", { campaignId }, { singletonKey: campaignId });
}
