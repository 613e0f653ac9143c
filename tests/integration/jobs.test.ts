import PgBoss from "pg-boss";
import { afterAll, describe, expect, it } from "vitest";
import { getDb, prisma } from "~/lib/db.server.ts";
import { enqueueCampaign, jobQueue, QUEUES } from "~/lib/jobs.server.ts";
import { runCampaign, startCampaign } from "~/services/admin/email-campaigns.server.ts";
import { startJobWorkers } from "~/services/job-workers.server.ts";
import { BulkEmailSchema } from "~/validation/admin-email.ts";
import { createUser } from "../helpers/factories.ts";
import { useMailCapture } from "../helpers/mail-capture.ts";

// The job queue (pg-boss on the app's own connection: PGlite here, PostgreSQL in CI's second
// pass): a campaign sent as a job finishes in the background, and two instances working the
// same queue never send a recipient twice.

const mail = useMailCapture();
let workers: Awaited<ReturnType<typeof startJobWorkers>> | undefined;
const others: PgBoss[] = [];

afterAll(async () => {
  for (const boss of others) await boss.stop({ graceful: false, wait: true, close: false });
  await workers?.stop();
});

async function campaignTo(tag: string, n: number) {
  const actor = await createUser({ role: "admin" });
  await prisma.user.createMany({
    data: Array.from({ length: n }, (_, i) => ({ email: `${tag}-${i}@example.com`, username: `${tag}_${i}`, password: "x", firstName: "J", lastName: tag })),
  });
  const ids = (await prisma.user.findMany({ where: { lastName: tag }, select: { id: true } })).map((u) => u.id);
  const input = BulkEmailSchema.parse({ subject: `Jobs ${tag}`, html: "<p>Hi {{firstName}}.</p>", userIds: ids });
  return startCampaign(actor, input, enqueueCampaign);
}

describe("the job library's connection", () => {
  it("rolls back a script that fails halfway, so the app's next queries still run", async () => {
    const { jobs } = getDb();
    await expect(jobs.executeSql("BEGIN; SELECT 1; SELECT no_such_function(); COMMIT;")).rejects.toThrow(/no_such_function/);
    expect((await jobs.executeSql("SELECT $1::int AS n", [7])).rows).toEqual([{ n: 7 }]);
    expect(await prisma.user.count()).toBeGreaterThanOrEqual(0);
  });
});

describe("the job queue", () => {
  it("runs a campaign in the background until it is finished", async () => {
    workers = await startJobWorkers({ pollingIntervalSeconds: 0.5 });
    const campaign = await campaignTo("bg", 40);
    await expect
      .poll(async () => (await prisma.emailCampaign.findUniqueOrThrow({ where: { id: campaign.id } })).status, { timeout: 20_000, interval: 200 })
      .toBe("finished");
    expect(await prisma.emailCampaign.findUniqueOrThrow({ where: { id: campaign.id } })).toMatchObject({ total: 40, sent: 40, failed: 0 });
    expect(mail.received.filter((m) => m.subject === "Jobs bg")).toHaveLength(40);
  }, 30_000);

  it("hands a campaign to one instance at a time: a second instance on the same queue sends nobody twice", async () => {
    // Another instance: its own pg-boss on the same database, with its own worker.
    const db = getDb();
    const other = new PgBoss({ db: db.jobs as PgBoss.Db, schema: db.jobs.schema, supervise: false, schedule: false });
    others.push(other);
    await other.start();
    await other.work<{ campaignId: string }>(QUEUES.campaign, { pollingIntervalSeconds: 0.5 }, async ([job]) => {
      await runCampaign(job!.data.campaignId);
    });
    const campaign = await campaignTo("two", 120);
    // The same campaign asked for twice: one job runs it, the singleton key keeps a second off it.
    await enqueueCampaign(campaign.id);
    await expect
      .poll(async () => (await prisma.emailCampaign.findUniqueOrThrow({ where: { id: campaign.id } })).status, { timeout: 30_000, interval: 200 })
      .toBe("finished");
    const received = mail.received.filter((m) => m.subject === "Jobs two");
    expect(received).toHaveLength(120);
    expect(new Set(received.map((m) => m.to[0])).size).toBe(120);
    // The singleton policy lets the second job wait while the first runs; it then finds the campaign finished.
    await expect.poll(async () => (await jobQueue()).getQueueSize(QUEUES.campaign), { timeout: 10_000, interval: 200 }).toBe(0);
  }, 40_000);
});
