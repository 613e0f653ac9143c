import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SMTPServer } from "smtp-server";

// Campaign benchmark: a bulk campaign to 10,000 free users, started the way the
// admin starts it (recipients resolved into log rows in one transaction) and sent by its job's
// handler as fast as it can (MAIL_RATE_PER_SECOND lifted) to a local SMTP sink that accepts and
// discards every message. Reports how long the start took and messages per second.
//
//   npx tsx bench/campaign.ts [recipients]   (or through bench/run.ts, which calls runCampaignBench)

export type CampaignBenchResult = { recipients: number; startMs: number; sendMs: number; messagesPerSecond: number; received: number };

export async function runCampaignBench(recipients = 10_000): Promise<CampaignBenchResult> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-bench-campaign-"));
  let received = 0;
  const sink = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      stream.on("data", () => undefined);
      stream.on("end", () => {
        received++;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", resolve));
  const port = (sink.server.address() as { port: number }).port;
  const saved = { DATA_DIR: process.env.DATA_DIR, LOG_LEVEL: process.env.LOG_LEVEL, SMTP_URL: process.env.SMTP_URL };
  Object.assign(process.env, { DATA_DIR: dataDir, LOG_LEVEL: "silent", SMTP_URL: `smtp://127.0.0.1:${port}` });
  const { resetEnv } = await import("../app/lib/env.server.ts");
  resetEnv();
  const { resetMailTransport } = await import("../app/lib/mail.server.ts");
  resetMailTransport();
  const dbModule = await import("../app/lib/db.server.ts");
  const db = dbModule.openDatabase({ memory: true });
  dbModule.setDb(db);
  try {
    await db.migrate();
    const { prisma } = dbModule;
    await prisma.$executeRawUnsafe(`INSERT INTO "User" ("id", "email", "username", "password", "firstName", "lastName", "isEmailVerified", "updatedAt")
      SELECT gen_random_uuid(), 'reader-' || n || '@example.test', 'reader_' || n, 'x', 'Reader', 'N' || n, true, now()
      FROM generate_series(1, ${recipients}) AS n`);
    const admin = await prisma.user.create({
      data: { email: "bench-admin@example.test", username: "bench_admin", password: "x", firstName: "A", lastName: "A", role: "admin", accountType: "premium" },
    });
    const { startCampaign, runCampaign } = await import("../app/services/admin/email-campaigns.server.ts");
    const { BulkEmailSchema } = await import("../app/validation/admin-email.ts");
    const input = BulkEmailSchema.parse({
      subject: "Bench news",
      html: "<p>Hello {{firstName}}. Twelve new animations are in the library.</p>",
      targetGroup: "free",
    });

    let began = performance.now();
    const campaign = await startCampaign(admin, input, async () => undefined);
    const startMs = performance.now() - began;
    began = performance.now();
    while (await runCampaign(campaign.id, { rate: 100_000, maxMs: 30_000 }));
    const sendMs = performance.now() - began;
    const done = await prisma.emailCampaign.findUniqueOrThrow({ where: { id: campaign.id } });
    if (done.sent !== recipients) throw new Error(`campaign sent ${done.sent} of ${recipients} (failed ${done.failed})`);
    return { recipients, startMs, sendMs, messagesPerSecond: (recipients / sendMs) * 1000, received };
  } finally {
    await db.close();
    dbModule.setDb(undefined);
    await new Promise<void>((resolve) => sink.close(() => resolve()));
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    resetEnv();
    resetMailTransport();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export function formatCampaignBench(r: CampaignBenchResult) {
  return [
    `A campaign to ${r.recipients.toLocaleString("en-US")} free users, sent to a local SMTP sink (the job pools 5 connections):`,
    `  recipients resolved and logged in ${r.startMs.toFixed(0)} ms; sent in ${(r.sendMs / 1000).toFixed(1)} s: ${r.messagesPerSecond.toFixed(0)} messages/s (the sink received ${r.received})`,
  ].join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  console.log(formatCampaignBench(await runCampaignBench(Number(process.argv[2] ?? 10_000))));
}
