import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { signPlaybackContext, type PlaybackSource } from "~/services/analytics/playback-context.server.ts";
import { PLAYBACK_PAGE_RULE, PLAYBACK_REFUSED } from "~/services/analytics/playback-events.server.ts";
import { rollUpPlaybackEvents } from "~/services/analytics/playback-rollup.server.ts";
import { LICENCE_NOT_FOUND } from "~/services/licensing/embeds.server.ts";
import { PLAYBACK_MESSAGES } from "~/validation/playback-analytics.ts";
import { sendToApp } from "../helpers/app.ts";
import { accessTokenFor, createPaidSubscription, createUser, sessionCookieFor } from "../helpers/factories.ts";

// What the clinic learns (issue 46), through the front door: the player's beacons are stored only
// for a live licence and link and are rate-limited; the rollup job turns them into the numbers the
// licence's API answer and CSV show, the same whether read live (today) or from the rollup, and
// repeated runs change nothing; retention deletes old events and old day salts.

const DAY = 24 * 60 * 60 * 1000;
const SITE = "clinic.example";
const UA = { a: "Mozilla/5.0 (iPhone) A", b: "Mozilla/5.0 (Android) B", c: "Mozilla/5.0 (Mac) C" };

let world: Awaited<ReturnType<typeof createWorld>>;

async function createWorld() {
  const n = crypto.randomUUID().slice(0, 8);
  const category = await prisma.category.create({ data: { name: `Knee ${n}`, slug: `knee-${n}` } });
  const otherCategory = await prisma.category.create({ data: { name: `Eye ${n}`, slug: `eye-${n}` } });
  const animation = await prisma.animation.create({ data: { title: "Knee", slug: `knee_${n}`, description: "Knee.", categoryId: category.id } });
  const other = await prisma.animation.create({ data: { title: "Eye", slug: `eye_${n}`, description: "Eye.", categoryId: otherCategory.id } });
  const holder = await createUser();
  const outsider = await createUser();
  const admin = await createUser({ role: "admin" });
  const live = (await createPaidSubscription(holder.id, { type: "individual", animationId: animation.id })).subscription;
  const ended = (await createPaidSubscription(holder.id, { type: "individual", animationId: animation.id, endDate: new Date(Date.now() - 1000) })).subscription;
  const link = (overrides: { expiresAt?: Date; revokedAt?: Date; label?: string } = {}) =>
    prisma.patientLink.create({
      data: {
        token: crypto.randomUUID(),
        subscriptionId: live.id,
        createdById: holder.id,
        label: overrides.label ?? "Mrs K., knee",
        expiresAt: overrides.expiresAt ?? new Date(Date.now() + 30 * DAY),
        revokedAt: overrides.revokedAt ?? null,
        animations: { create: { animationId: animation.id, position: 0 } },
      },
    });
  const links = { live: await link(), expired: await link({ expiresAt: new Date(Date.now() - 1000) }), revoked: await link({ revokedAt: new Date() }) };
  // A practice's licence: its members read its analytics, whatever their role.
  const owner = await createUser();
  const viewer = await createUser();
  const practice = await prisma.practice.create({
    data: {
      legalName: `Praxis ${n}`,
      address: "1 Main St",
      country: "DE",
      members: {
        create: [
          { userId: owner.id, role: "owner" },
          { userId: viewer.id, role: "viewer" },
        ],
      },
    },
  });
  const practiceLicence = (await createPaidSubscription(owner.id, { type: "category", categoryId: category.id })).subscription;
  await prisma.subscription.update({ where: { id: practiceLicence.id }, data: { practiceId: practice.id } });
  return { animation, other, holder, outsider, admin, live, ended, links, owner, viewer, practiceLicence };
}

beforeAll(async () => {
  world = await createWorld();
});

afterEach(() => {
  vi.useRealTimers();
});

const site = (host = SITE): PlaybackSource => ({ kind: "site", host });

function tokenFor(licenceId: string, source: PlaybackSource = site(), animationId = world.animation.id, now?: number) {
  return signPlaybackContext({ licenceId, animationId, source }, now);
}

type Event = { play: string; kind: string; fraction: number };

/**
 * A batch as the player's sendBeacon posts it, through the app as `npm start` builds it: the edge
 * (the route's CSRF exemption and body rule), the rate limits by the client's address (the test
 * server trusts its loopback proxy's X-Forwarded-For) and the route.
 */
async function beacon(body: unknown, { ip = "198.51.100.1", ua = UA.a, type = "text/plain;charset=UTF-8" } = {}) {
  const response = await sendToApp("/api/playback-events", {
    method: "POST",
    headers: new Headers({ "Content-Type": type, "User-Agent": ua, "X-Forwarded-For": ip }),
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: response.body.length ? JSON.parse(response.body.toString()) : null };
}

const message = (response: { body: { message: string } }) => response.body.message;

/** The events one playback sends, from its start up to `fraction` (quartiles as the player queues them). */
function playback(fraction: number, play = crypto.randomUUID()): Event[] {
  const events: Event[] = [{ play, kind: "play", fraction: 0 }];
  for (const [q, kind] of [
    [0.25, "q25"],
    [0.5, "q50"],
    [0.75, "q75"],
    [1, "q100"],
  ] as const) {
    if (fraction >= q) events.push({ play, kind, fraction: q });
  }
  if (![0, 0.25, 0.5, 0.75, 1].includes(fraction)) events.push({ play, kind: "progress", fraction });
  return events;
}

describe("POST /api/playback-events", () => {
  it("stores a batch for a live licence on its site, sent as sendBeacon sends it (text/plain), with no address or browser kept", async () => {
    const events = playback(0.5);
    const response = await beacon({ token: tokenFor(world.live.id), events }, { ip: "203.0.113.77" });
    expect(response.status).toBe(204);
    const rows = await prisma.playbackEvent.findMany({ where: { playId: events[0]!.play } });
    expect(rows.map((r) => r.kind).sort()).toEqual(["play", "q25", "q50"]);
    expect(rows[0]).toMatchObject({ subscriptionId: world.live.id, animationId: world.animation.id, sourceKind: "site", source: SITE });
    expect(JSON.stringify(rows, (_, v: unknown) => (typeof v === "bigint" ? String(v) : v))).not.toMatch(/203\.0\.113\.77|iPhone/);
  });

  it("takes application/json too", async () => {
    const response = await beacon({ token: tokenFor(world.live.id), events: playback(0) }, { type: "application/json" });
    expect(response.status).toBe(204);
  });

  it("stores a live patient link's plays; watching to the end marks the link opened and completed", async () => {
    const token = tokenFor(world.live.id, { kind: "link", linkId: world.links.live.id });
    expect((await beacon({ token, events: playback(0.25) }, { ip: "198.51.100.9" })).status).toBe(204);
    let link = await prisma.patientLink.findUniqueOrThrow({ where: { id: world.links.live.id } });
    expect(link.firstOpenedAt).not.toBeNull();
    expect(link.completedAt).toBeNull();
    expect((await beacon({ token, events: playback(1) }, { ip: "198.51.100.9" })).status).toBe(204);
    link = await prisma.patientLink.findUniqueOrThrow({ where: { id: world.links.live.id } });
    expect(link.completedAt).not.toBeNull();
  });

  it("refuses an ended licence, an expired or revoked link and an animation the licence does not cover (410)", async () => {
    const cases = [
      [tokenFor(world.ended.id), PLAYBACK_REFUSED.licence],
      [tokenFor(world.live.id, { kind: "link", linkId: world.links.expired.id }), PLAYBACK_REFUSED.link],
      [tokenFor(world.live.id, { kind: "link", linkId: world.links.revoked.id }), PLAYBACK_REFUSED.link],
      [tokenFor(world.live.id, site(), world.other.id), PLAYBACK_REFUSED.animation],
    ] as const;
    for (const [token, refusal] of cases) {
      const response = await beacon({ token, events: playback(0.25) }, { ip: "198.51.100.20" });
      expect(response.status, refusal).toBe(410);
      expect(message(response)).toBe(refusal);
    }
    expect(await prisma.playbackEvent.count({ where: { OR: [{ subscriptionId: world.ended.id }, { animationId: world.other.id }] } })).toBe(0);
  });

  it("refuses a forged, altered or expired token and a body that is not a batch (400)", async () => {
    const good = tokenFor(world.live.id);
    const [payload, signature] = good.split(".") as [string, string];
    const otherLicence = Buffer.from(Buffer.from(payload, "base64url").toString().replace(world.live.id, world.ended.id)).toString("base64url");
    const tokens = [
      "not-a-token",
      `${otherLicence}.${signature}`,
      `${payload}.${signature.slice(1)}x`,
      tokenFor(world.live.id, site(), world.animation.id, Date.now() - 7 * 60 * 60 * 1000),
    ];
    for (const token of tokens) {
      const response = await beacon({ token, events: playback(0) }, { ip: "198.51.100.30" });
      expect(response.status, token).toBe(400);
      expect(message(response)).toBe(PLAYBACK_MESSAGES.token);
    }
    const bodies = [
      ["{not json", PLAYBACK_MESSAGES.body],
      [{ token: good, events: [] }, PLAYBACK_MESSAGES.events],
      [{ token: good, events: Array.from({ length: 21 }, () => playback(0)[0]) }, PLAYBACK_MESSAGES.events],
      [{ token: good, events: [{ play: crypto.randomUUID(), kind: "seek", fraction: 0.1 }] }, PLAYBACK_MESSAGES.kind],
      [{ token: good, events: [{ play: crypto.randomUUID(), kind: "play", fraction: 1.5 }] }, PLAYBACK_MESSAGES.fraction],
      [{ token: good, events: [{ play: "1", kind: "play", fraction: 0 }] }, PLAYBACK_MESSAGES.play],
    ] as const;
    for (const [body, expected] of bodies) {
      const response = await beacon(body, { ip: "198.51.100.31" });
      expect(response.status, expected).toBe(400);
      expect(message(response)).toBe(expected);
    }
  });

  it(`limits a page to ${PLAYBACK_PAGE_RULE.limit} batches per window (429 with Retry-After)`, async () => {
    // The limit is counted before the licence is read: the ended licence's refusals count too.
    const token = tokenFor(world.ended.id);
    for (let i = 0; i < PLAYBACK_PAGE_RULE.limit; i++) {
      expect((await beacon({ token, events: playback(0) }, { ip: "198.51.100.40" })).status).toBe(410);
    }
    const limited = await beacon({ token, events: playback(0) }, { ip: "198.51.100.40" });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    // Another page (another token) is not held up by this one.
    expect((await beacon({ token: tokenFor(world.live.id), events: playback(0) }, { ip: "198.51.100.40" })).status).toBe(204);
  });
});

describe("the numbers a licence's analytics show", () => {
  type Counts = { plays: number; viewers: number; averageWatched: number; reached25: number; reached50: number; reached75: number; reached100: number };
  type Analytics = {
    series: { day: string; plays: number; viewers: number }[];
    sources: (Counts & { kind: string; host?: string; linkId?: string; label?: string; openedAt: string | null; completedAt: string | null })[];
    totals: Counts;
    updatedAt: string | null;
  };

  let licence: { id: string };
  let holder: { id: string };
  let link: { id: string };
  const today = new Date().toISOString().slice(0, 10);

  // Site: viewer A plays to 60 % and, later the same day, to the end; viewer B to 10 %; the end's
  // beacon arrives twice. Patient link: viewer C watches to the end.
  const expectedSite = { plays: 3, viewers: 2, averageWatched: 0.5667, reached25: 2, reached50: 2, reached75: 1, reached100: 1 };
  const expectedLink = { plays: 1, viewers: 1, averageWatched: 1, reached25: 1, reached50: 1, reached75: 1, reached100: 1 };
  const expectedTotals = { plays: 4, viewers: 3, averageWatched: 0.675, reached25: 3, reached50: 3, reached75: 2, reached100: 2 };

  beforeAll(async () => {
    holder = await createUser();
    licence = (await createPaidSubscription(holder.id, { type: "individual", animationId: world.animation.id })).subscription;
    link = await prisma.patientLink.create({
      data: {
        token: crypto.randomUUID(),
        subscriptionId: licence.id,
        createdById: holder.id,
        label: "=Mr T., before surgery",
        expiresAt: new Date(Date.now() + 30 * DAY),
        animations: { create: { animationId: world.animation.id, position: 0 } },
      },
    });
    const siteToken = tokenFor(licence.id);
    const linkToken = tokenFor(licence.id, { kind: "link", linkId: link.id });
    const toEnd = playback(1);
    const sends: [string, Event[], string, string][] = [
      [siteToken, playback(0.6), "192.0.2.1", UA.a],
      [siteToken, toEnd, "192.0.2.1", UA.a],
      [siteToken, toEnd.slice(-1), "192.0.2.1", UA.a],
      [siteToken, playback(0.1), "192.0.2.2", UA.b],
      [linkToken, playback(1), "192.0.2.3", UA.c],
    ];
    for (const [token, events, ip, ua] of sends) expect((await beacon({ token, events }, { ip, ua })).status).toBe(204);
  });

  const api = async (userId: string | null, id = licence.id, days?: number) => {
    const headers = new Headers(userId ? { Authorization: `Bearer ${await accessTokenFor(userId)}` } : {});
    const response = await sendToApp(`/api/licences/${id}/analytics${days ? `?days=${days}` : ""}`, { headers });
    return { status: response.status, body: JSON.parse(response.body.toString()) as Analytics & { message?: string } };
  };

  function expectNumbers(body: Analytics, day: string) {
    const roundedAverage = (c: Counts) => ({ ...c, averageWatched: Math.round(c.averageWatched * 10_000) / 10_000 });
    const siteRow = body.sources.find((s) => s.kind === "site")!;
    const linkRow = body.sources.find((s) => s.kind === "link" && s.linkId === link.id)!;
    expect(siteRow).toMatchObject({ host: SITE, ...expectedSite });
    expect(roundedAverage(linkRow)).toMatchObject({ label: "=Mr T., before surgery", ...expectedLink });
    expect(linkRow.openedAt).not.toBeNull();
    expect(linkRow.completedAt).not.toBeNull();
    expect(roundedAverage(body.totals)).toEqual(expectedTotals);
    expect(body.series.find((d) => d.day === day)).toEqual({ day, plays: 4, viewers: 3 });
    expect(body.series.reduce((sum, d) => sum + d.plays, 0)).toBe(4);
  }

  it("GET /api/licences/{id}/analytics counts today's events live: plays, unique viewers (one per viewer and day), average watched, quartiles", async () => {
    const { status, body } = await api(holder.id);
    expect(status).toBe(200);
    expect(body.series).toHaveLength(30);
    expect(body.series.at(-1)!.day).toBe(today);
    expectNumbers(body, today);
  });

  it("the rollup job gives the same numbers once the day is past, and running it again changes nothing", async () => {
    await rollUpPlaybackEvents();
    const rows = () => prisma.playbackDaily.findMany({ where: { subscriptionId: licence.id }, orderBy: [{ sourceKind: "asc" }, { source: "asc" }] });
    const first = await rows();
    expect(first).toHaveLength(2);
    expect(first.find((r) => r.sourceKind === "site")).toMatchObject({ plays: 3, viewers: 2, reached25: 2, reached50: 2, reached75: 1, reached100: 1 });
    await rollUpPlaybackEvents();
    await rollUpPlaybackEvents(new Date(Date.now() + 60_000));
    expect(await rows()).toEqual(first);

    // Tomorrow, today's numbers come from the rollup: the same answer.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + DAY });
    const { status, body } = await api(holder.id);
    expect(status).toBe(200);
    expect(body.updatedAt).not.toBeNull();
    expect(body.series.at(-1)).toMatchObject({ plays: 0 });
    expectNumbers(body, today);
  });

  it("the CSV carries the same numbers, with a label that could be a formula defused", async () => {
    const response = await sendToApp(`/licences/${licence.id}/analytics.csv`, { headers: new Headers({ Cookie: await sessionCookieFor(holder.id) }) });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/csv/);
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="licence-.*\.csv"$/);
    const lines = response.body.toString().trim().split("\r\n");
    expect(lines[0]).toBe(
      "row,day,source_kind,source,label,plays,unique_viewers,average_watched_percent,reached_25_percent,reached_50_percent,reached_75_percent,reached_100_percent,opened_at,completed_at",
    );
    expect(lines).toContain(`day,${today},,,,4,3,,,,,,,`);
    expect(lines).toContain(`source,,site,${SITE},,3,2,56.7,66.7,66.7,33.3,33.3,,`);
    expect(lines.find((l) => l.startsWith(`source,,patient_link,${link.id},"'=Mr T., before surgery",1,1,100,100,100,100,100,`))).toBeTruthy();
    expect(lines.at(-1)).toMatch(/^total,\d{4}-\d{2}-\d{2}\.\.\d{4}-\d{2}-\d{2},,,,4,3,67\.5,75,75,50,50,,$/);
  });

  it("is for the licence's holder, its practice's members and admins: anyone else reads License not found", async () => {
    expect((await api(world.admin.id)).status).toBe(200);
    const outsider = await api(world.outsider.id);
    expect(outsider).toMatchObject({ status: 404, body: { message: LICENCE_NOT_FOUND } });
    expect((await api(null)).status).toBe(401);
    const member = await api(world.viewer.id, world.practiceLicence.id, 7);
    expect(member.status).toBe(200);
    expect(member.body.series).toHaveLength(7);
    expect((await api(world.holder.id, world.practiceLicence.id)).status).toBe(404);
    expect((await api(holder.id, "not-a-uuid")).status).toBe(404);
    expect((await api(holder.id, licence.id, 400)).status).toBe(400);
    const csv = await sendToApp(`/licences/${licence.id}/analytics.csv`, { headers: new Headers({ Cookie: await sessionCookieFor(world.outsider.id) }) });
    expect(csv.status).toBe(404);
  });
});

describe("retention", () => {
  it("deletes events older than analytics_retention_days and day salts older than yesterday; the daily numbers stay", async () => {
    const old = (daysAgo: number) =>
      prisma.playbackEvent.create({
        data: {
          at: new Date(Date.now() - daysAgo * DAY),
          subscriptionId: world.live.id,
          animationId: world.animation.id,
          sourceKind: "site",
          source: "old.example",
          viewerHash: "x",
          playId: crypto.randomUUID(),
          kind: "play",
          fraction: 0.3,
        },
      });
    const kept = await old(9);
    const gone = await old(12);
    const ancient = await old(100);
    const day = (daysAgo: number) => new Date(`${new Date(Date.now() - daysAgo * DAY).toISOString().slice(0, 10)}T00:00:00Z`);
    await prisma.playbackDaySalt.createMany({ data: [3, 1].map((d) => ({ day: day(d), salt: `salt-${d}` })), skipDuplicates: true });

    await rollUpPlaybackEvents();
    expect(await prisma.playbackEvent.findUnique({ where: { id: ancient.id } })).toBeNull();
    expect(await prisma.playbackEvent.findUnique({ where: { id: gone.id } })).not.toBeNull();
    // The day's numbers were made before its events went.
    expect(await prisma.playbackDaily.findFirst({ where: { source: "old.example", day: day(100) } })).toMatchObject({ plays: 1 });

    await prisma.appSetting.create({ data: { key: "analytics_retention_days", value: "10" } });
    await rollUpPlaybackEvents();
    expect(await prisma.playbackEvent.findUnique({ where: { id: gone.id } })).toBeNull();
    expect(await prisma.playbackEvent.findUnique({ where: { id: kept.id } })).not.toBeNull();
    expect((await prisma.playbackDaySalt.findMany({ orderBy: { day: "asc" } })).map((s) => s.day.toISOString().slice(0, 10))).not.toContain(
      day(3).toISOString().slice(0, 10),
    );
    expect(await prisma.playbackDaySalt.findUnique({ where: { day: day(1) } })).not.toBeNull();
  });

  it("refuses an update of an event (append-only)", async () => {
    const row = await prisma.playbackEvent.findFirstOrThrow();
    await expect(prisma.playbackEvent.update({ where: { id: row.id }, data: { fraction: 1 } })).rejects.toThrow(/append-only/);
  });
});
