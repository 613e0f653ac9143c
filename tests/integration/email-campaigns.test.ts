import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { INTERRUPTED, readUnsubscribeLink, runCampaign, startCampaign, unsubscribe, unsubscribeUrl } from "~/services/admin/email-campaigns.server.ts";
import { BulkEmailSchema } from "~/validation/admin-email.ts";
import { createUser } from "../helpers/factories.ts";
import { useMailCapture } from "../helpers/mail-capture.ts";

// Bulk campaigns against the real SMTP test server: recipients resolved once, blocked and
// opted-out users skipped, one log row per recipient, nobody mailed twice across a restart.

const mail = useMailCapture();

async function admin() {
  return createUser({ role: "admin", email: `admin-${crypto.randomUUID()}@example.com` });
}

/** `n` users in one statement (the factory hashes a password per user: too slow for 2,000). */
async function bulkUsers(tag: string, n: number, extra: { accountType?: "free" | "premium" } = {}) {
  await prisma.user.createMany({
    data: Array.from({ length: n }, (_, i) => ({
      email: `${tag}-${i}@example.com`,
      username: `${tag}_${i}`,
      password: "x",
      firstName: `F${i}`,
      lastName: tag,
      ...extra,
    })),
  });
  return prisma.user.findMany({ where: { lastName: tag }, select: { id: true, email: true }, orderBy: { email: "asc" } });
}

const input = (fields: Record<string, unknown>) =>
  BulkEmailSchema.parse({ subject: "Spring update", htmlContent: "<p>Hello {{firstName}}. New animations are out!</p>", ...fields });

describe("a campaign of 2,000 free users", () => {
  it("mails each reachable user once, skips blocked and opted-out ones, and logs every recipient", async () => {
    const actor = await admin();
    const users = await bulkUsers("camp", 2000, { accountType: "free" });
    const [blocked, optedOut, blockedAddress] = users.filter((u) => /^camp-(10|11|12)@/.test(u.email));
    await prisma.user.update({ where: { id: blocked.id }, data: { isActive: false } });
    await prisma.notificationPreferences.create({ data: { userId: optedOut.id, emailNewsletter: false } });
    await prisma.blockedEmail.create({ data: { email: blockedAddress.email.toUpperCase(), reason: "bounced" } });
    const before = mail.received.length;

    const queued: string[] = [];
    const campaign = await startCampaign(actor, input({ targetGroup: "free" }), async (id) => void queued.push(id));
    expect(queued).toEqual([campaign.id]);
    // Other free users (from other tests of this file) may be in the audience too: count ours.
    const ours = await prisma.emailLog.count({ where: { campaignId: campaign.id, toEmail: { startsWith: "camp-" } } });
    expect(ours).toBe(1997);

    await runCampaign(campaign.id, { rate: 5000 });

    const done = await prisma.emailCampaign.findUniqueOrThrow({ where: { id: campaign.id } });
    expect(done).toMatchObject({ status: "finished", sent: done.total, failed: 0 });
    expect(done.skipped).toBeGreaterThanOrEqual(3);
    const received = mail.received.slice(before).filter((m) => m.to[0]!.startsWith("camp-"));
    expect(received).toHaveLength(1997);
    expect(new Set(received.map((m) => m.to[0])).size).toBe(1997);
    for (const skipped of [blocked, optedOut, blockedAddress]) expect(received.some((m) => m.to.includes(skipped.email))).toBe(false);
    const third = users.find((u) => u.email === "camp-3@example.com")!;
    const first = received.find((m) => m.to[0] === third.email)!;
    expect(first.subject).toBe("Spring update");
    expect(first.text).toContain("Hello F3.");
    // RFC 8058 one-click unsubscribe headers, with a link for this user and this kind of mail.
    expect(first.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    // Long header lines are folded: unfold before reading the link.
    const link = /^List-Unsubscribe:\s*<([^>]+)>/m.exec(first.raw.replace(/\r?\n[ \t]+/g, ""))?.[1];
    expect(link && readUnsubscribeLink(new URL(link).searchParams)).toEqual({ userId: third.id, kind: "newsletter" });
    expect(await prisma.emailLog.count({ where: { campaignId: campaign.id, status: "sent" } })).toBe(done.total);
  }, 120_000);
});

describe("a campaign interrupted by a restart", () => {
  it("finishes without sending anyone twice: rows claimed by the dead run are failed, not resent", async () => {
    const actor = await admin();
    const users = await bulkUsers("rst", 60);
    const before = mail.received.length;
    const campaign = await startCampaign(actor, input({ userIds: users.map((u) => u.id) }), async () => undefined);
    expect(campaign.total).toBe(60);

    // The first run is stopped between batches (a shutdown), with some rows sent.
    const stop = new AbortController();
    const run = runCampaign(campaign.id, { rate: 20, signal: stop.signal });
    await expect.poll(() => prisma.emailLog.count({ where: { campaignId: campaign.id, status: "sent" } }), { timeout: 10_000 }).toBeGreaterThan(0);
    stop.abort();
    await run;
    // A crash in the middle of a batch: two rows claimed, their outcome unknown.
    const claimed = await prisma.emailLog.findMany({ where: { campaignId: campaign.id, status: "pending" }, take: 2, select: { id: true } });
    await prisma.emailLog.updateMany({ where: { id: { in: claimed.map((r) => r.id) } }, data: { status: "sending" } });

    await runCampaign(campaign.id, { rate: 5000 });

    const done = await prisma.emailCampaign.findUniqueOrThrow({ where: { id: campaign.id } });
    expect(done).toMatchObject({ status: "finished", total: 60, sent: 58, failed: 2 });
    const received = mail.received.slice(before).filter((m) => m.to[0]!.startsWith("rst-"));
    expect(received).toHaveLength(58);
    expect(new Set(received.map((m) => m.to[0])).size).toBe(58);
    const failed = await prisma.emailLog.findMany({ where: { campaignId: campaign.id, status: "failed" } });
    expect(failed.map((r) => r.errorMessage)).toEqual([INTERRUPTED, INTERRUPTED]);
  }, 60_000);
});

describe("unsubscribe links", () => {
  it("turn off only that kind of mail, for only that user, and refuse an altered link", async () => {
    const user = await createUser();
    const url = new URL(unsubscribeUrl(user.id, "promotions"));
    const link = readUnsubscribeLink(url.searchParams)!;
    expect(link).toEqual({ userId: user.id, kind: "promotions" });
    await unsubscribe(link);
    await unsubscribe(link);
    expect(await prisma.notificationPreferences.findUnique({ where: { userId: user.id } })).toMatchObject({ emailPromotions: false, emailNewsletter: true });

    const other = await createUser();
    const forged = new URLSearchParams(url.searchParams);
    forged.set("u", other.id);
    expect(readUnsubscribeLink(forged)).toBeNull();
    forged.set("u", user.id);
    forged.set("k", "newsletter");
    expect(readUnsubscribeLink(forged)).toBeNull();
  });
});
