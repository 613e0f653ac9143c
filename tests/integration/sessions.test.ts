import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "~/lib/crypto.server.ts";
import { prisma } from "~/lib/db.server.ts";
import { getEnv } from "~/lib/env.server.ts";
import * as profileSessions from "~/routes/account/profile-sessions.tsx";
import * as profilePage from "~/routes/account/profile.tsx";
import * as login from "~/routes/api/auth.login.ts";
import * as me from "~/routes/api/auth.me.ts";
import * as refresh from "~/routes/api/auth.refresh.ts";
import * as sessionsApi from "~/routes/api/auth.sessions.ts";
import * as endOthersApi from "~/routes/api/auth.sessions.end-others.ts";
import * as sessionApi from "~/routes/api/auth.sessions.id.ts";
import * as authPage from "~/routes/public/auth.tsx";
import { sendToApp } from "../helpers/app.ts";
import { createUser, TEST_PASSWORD } from "../helpers/factories.ts";
import { callRoute, cookiesFrom } from "../helpers/route.ts";

// "Where you're signed in": the account's browser sessions and API sign-ins, listed on
// /profile and GET /api/auth/sessions, ended one at a time or all but the caller's.

const CHROME_MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
const FIREFOX_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";

// The place comes from a header only a trusted proxy may set (services/auth/device.server.ts).
const env = getEnv() as { GEO_HEADER?: string; TRUST_PROXY: ReturnType<typeof getEnv>["TRUST_PROXY"] };
const saved = { GEO_HEADER: env.GEO_HEADER, TRUST_PROXY: env.TRUST_PROXY };
beforeAll(() => {
  env.GEO_HEADER = "x-country";
  env.TRUST_PROXY = ["loopback"];
});
afterAll(() => {
  env.GEO_HEADER = saved.GEO_HEADER;
  env.TRUST_PROXY = saved.TRUST_PROXY;
});

/** A browser signed in through the /auth form: its cookie header. */
async function browserSignIn(email: string, userAgent = CHROME_MAC, clientIp = "203.0.113.7") {
  const res = await callRoute(authPage, "/auth", {
    form: { intent: "signin", email, password: TEST_PASSWORD },
    headers: { "User-Agent": userAgent, "X-Country": "DE" },
    clientIp,
  });
  expect(res.status).toBe(302);
  const cookie = cookiesFrom(res);
  expect(cookie).toContain("medanim_session=");
  return cookie;
}

/** An /api client signed in through POST /api/auth/login: its tokens. */
async function apiSignIn(email: string, userAgent = "medanim-cli/2.1") {
  const res = await callRoute(login, "/api/auth/login", {
    json: { email, password: TEST_PASSWORD },
    headers: { "User-Agent": userAgent },
    clientIp: "198.51.100.4",
  });
  expect(res.status).toBe(200);
  return res.body as { accessToken: string; refreshToken: string };
}

async function listFor(auth: { cookie?: string; token?: string }) {
  const res = await callRoute(sessionsApi, "/api/auth/sessions", auth);
  expect(res.status).toBe(200);
  return res.body.sessions as Array<{
    kind: string;
    id: string;
    device: string;
    place: string | null;
    ipAddress: string | null;
    current: boolean;
    createdAt: string;
    lastUsedAt: string;
  }>;
}

describe("GET /api/auth/sessions", () => {
  it("401 for an anonymous caller", async () => {
    expect((await callRoute(sessionsApi, "/api/auth/sessions")).status).toBe(401);
  });

  it("lists browser sessions and API sign-ins, the caller's first and marked, with device, place and address", async () => {
    const user = await createUser();
    const chrome = await browserSignIn(user.email);
    const firefox = await browserSignIn(user.email, FIREFOX_WINDOWS, "203.0.113.8");
    const tokens = await apiSignIn(user.email);

    const seenByChrome = await listFor({ cookie: chrome });
    expect(seenByChrome).toHaveLength(3);
    expect(seenByChrome[0]).toMatchObject({ kind: "session", device: "Chrome on macOS", place: "Germany", ipAddress: "203.0.113.7", current: true });
    expect(seenByChrome.filter((s) => s.current)).toHaveLength(1);
    expect(seenByChrome).toContainEqual(expect.objectContaining({ kind: "session", device: "Firefox on Windows", current: false }));
    expect(seenByChrome).toContainEqual(expect.objectContaining({ kind: "token", device: "medanim-cli", ipAddress: "198.51.100.4", current: false }));

    const seenByApi = await listFor({ token: tokens.accessToken });
    expect(seenByApi[0]).toMatchObject({ kind: "token", current: true });

    // Never the cookie's secret: a session is named by the SHA-256 of it.
    const rows = await prisma.session.findMany({ where: { userId: user.id }, select: { id: true } });
    const body = JSON.stringify(seenByChrome);
    for (const row of rows) {
      expect(body).not.toContain(row.id);
      expect(seenByChrome.map((s) => s.id)).toContain(hashToken(row.id));
    }
    expect(firefox).not.toBe(chrome);
  });

  it("shows one entry per API sign-in across refreshes, last used at the newest refresh, and leaves out ended ones", async () => {
    const user = await createUser();
    const first = await apiSignIn(user.email);
    const family = (await prisma.refreshToken.findFirstOrThrow({ where: { userId: user.id } })).familyId;
    const rotated = await callRoute(refresh, "/api/auth/refresh", { json: { refreshToken: first.refreshToken } });
    expect(rotated.status).toBe(200);
    const other = await apiSignIn(user.email);
    await callRoute(sessionApi, `/api/auth/sessions/${family}`, { method: "DELETE", token: other.accessToken });

    const list = await listFor({ token: other.accessToken });
    expect(list).toHaveLength(1);
    expect(list[0]!.current).toBe(true);

    const third = await apiSignIn(user.email);
    const again = await callRoute(refresh, "/api/auth/refresh", { json: { refreshToken: third.refreshToken } });
    const entry = (await listFor({ token: again.body.accessToken })).find((s) => s.current)!;
    const newest = await prisma.refreshToken.findFirstOrThrow({ where: { userId: user.id, rotatedAt: null, revokedAt: null, familyId: entry.id } });
    expect(new Date(entry.lastUsedAt).getTime()).toBe(newest.createdAt.getTime());
    expect(new Date(entry.createdAt).getTime()).toBe(newest.familyCreatedAt.getTime());
  });
});

describe("DELETE /api/auth/sessions/{id}", () => {
  it("ends a browser session: its next request is anonymous, and the audit log says so", async () => {
    const user = await createUser();
    const victim = await browserSignIn(user.email, FIREFOX_WINDOWS);
    const tokens = await apiSignIn(user.email);
    expect((await callRoute(me, "/api/auth/me", { cookie: victim })).status).toBe(200);
    const target = (await listFor({ token: tokens.accessToken })).find((s) => s.kind === "session")!;

    const res = await callRoute(sessionApi, `/api/auth/sessions/${target.id}`, { method: "DELETE", token: tokens.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe("Signed out");
    expect((await callRoute(me, "/api/auth/me", { cookie: victim })).status).toBe(401);
    const profile = await callRoute(profilePage, "/profile", { cookie: victim });
    expect(profile.location).toMatch(/^\/auth\?redirectTo=/);

    const audit = await prisma.auditLog.findFirstOrThrow({ where: { action: "security.session_end", actorId: user.id } });
    expect(audit).toMatchObject({ entityType: "security", entityId: user.id, actorEmail: user.email });
    expect(audit.summary).toContain("Firefox on Windows");
  });

  it("ends an API sign-in: its refresh token cannot refresh and its access token is refused at once", async () => {
    const user = await createUser();
    const browser = await browserSignIn(user.email);
    const client = await apiSignIn(user.email);
    expect((await callRoute(me, "/api/auth/me", { token: client.accessToken })).status).toBe(200);
    const target = (await listFor({ cookie: browser })).find((s) => s.kind === "token")!;

    expect((await callRoute(sessionApi, `/api/auth/sessions/${target.id}`, { method: "DELETE", cookie: browser })).status).toBe(200);
    expect((await callRoute(me, "/api/auth/me", { token: client.accessToken })).status).toBe(401);
    expect((await callRoute(refresh, "/api/auth/refresh", { json: { refreshToken: client.refreshToken } })).status).toBe(401);
    // Ended once: a second try finds nothing, and writes nothing.
    expect((await callRoute(sessionApi, `/api/auth/sessions/${target.id}`, { method: "DELETE", cookie: browser })).status).toBe(404);
    expect(await prisma.auditLog.count({ where: { action: "security.session_end", actorId: user.id } })).toBe(1);
  });

  it("404 for another account's session or sign-in and for an id of no one's; nothing is ended", async () => {
    const [owner, stranger] = await Promise.all([createUser(), createUser()]);
    const ownerBrowser = await browserSignIn(owner.email);
    await apiSignIn(owner.email);
    const strangerTokens = await apiSignIn(stranger.email);
    const ownerEntries = await listFor({ cookie: ownerBrowser });
    expect(ownerEntries).toHaveLength(2);

    for (const entry of ownerEntries) {
      const res = await callRoute(sessionApi, `/api/auth/sessions/${entry.id}`, { method: "DELETE", token: strangerTokens.accessToken });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe("Session not found");
    }
    for (const id of ["not-a-session", "0".repeat(64), crypto.randomUUID()]) {
      expect((await callRoute(sessionApi, `/api/auth/sessions/${id}`, { method: "DELETE", token: strangerTokens.accessToken })).status).toBe(404);
    }
    expect(await listFor({ cookie: ownerBrowser })).toHaveLength(2);
    expect(await prisma.auditLog.count({ where: { action: "security.session_end", actorId: stranger.id } })).toBe(0);
  });

  it("ending the caller's own sign-in signs the caller out", async () => {
    const user = await createUser();
    const tokens = await apiSignIn(user.email);
    const own = (await listFor({ token: tokens.accessToken }))[0]!;
    expect(own.current).toBe(true);
    expect((await callRoute(sessionApi, `/api/auth/sessions/${own.id}`, { method: "DELETE", token: tokens.accessToken })).status).toBe(200);
    expect((await callRoute(sessionsApi, "/api/auth/sessions", { token: tokens.accessToken })).status).toBe(401);
  });
});

describe("POST /api/auth/sessions/end-others", () => {
  it("ends every other session and API sign-in, keeps the caller's, and writes one audit entry", async () => {
    const user = await createUser();
    const browserA = await browserSignIn(user.email);
    const browserB = await browserSignIn(user.email, FIREFOX_WINDOWS);
    const other = await apiSignIn(user.email);
    const caller = await apiSignIn(user.email, "medanim-app/1.0");

    const res = await callRoute(endOthersApi, "/api/auth/sessions/end-others", { method: "POST", token: caller.accessToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: "Signed out 3 other sessions", ended: 3 });

    for (const cookie of [browserA, browserB]) expect((await callRoute(me, "/api/auth/me", { cookie })).status).toBe(401);
    expect((await callRoute(me, "/api/auth/me", { token: other.accessToken })).status).toBe(401);
    expect((await callRoute(refresh, "/api/auth/refresh", { json: { refreshToken: other.refreshToken } })).status).toBe(401);
    expect((await callRoute(me, "/api/auth/me", { token: caller.accessToken })).status).toBe(200);
    const kept = await callRoute(refresh, "/api/auth/refresh", { json: { refreshToken: caller.refreshToken }, headers: { "User-Agent": "medanim-app/1.0" } });
    expect(kept.status).toBe(200);
    expect(await listFor({ token: kept.body.accessToken })).toEqual([expect.objectContaining({ kind: "token", device: "medanim-app", current: true })]);

    const audits = await prisma.auditLog.findMany({ where: { action: "security.session_end", actorId: user.id } });
    expect(audits).toHaveLength(1);
    expect(audits[0]!.summary).toContain("2 browser sessions and 1 API sign-in ended");

    const none = await callRoute(endOthersApi, "/api/auth/sessions/end-others", { method: "POST", token: kept.body.accessToken });
    expect(none.body).toEqual({ message: "There were no other sessions", ended: 0 });
    expect(await prisma.auditLog.count({ where: { action: "security.session_end", actorId: user.id } })).toBe(1);
  });
});

describe("/profile: Where you're signed in", () => {
  it("lists the sessions with This device marked, in the page's HTML too", async () => {
    const user = await createUser();
    const cookie = await browserSignIn(user.email);
    await apiSignIn(user.email);
    const page = await callRoute(profilePage, "/profile", { cookie });
    expect(page.status).toBe(200);
    expect(page.body.sessions).toHaveLength(2);
    expect(page.body.sessions[0]).toMatchObject({ kind: "session", device: "Chrome on macOS", current: true });

    const html = (await sendToApp("/profile", { headers: new Headers({ Cookie: cookie }) })).body.toString("utf8");
    expect(html).toContain("Where you&#x27;re signed in");
    expect(html).toContain("This device");
    expect(html).toContain("medanim-cli");
    expect(html).toContain('action="/profile/sessions"');
    expect(html).toContain("Sign out everywhere else");
  });

  it("Sign out on a row ends that session and returns to the list with a toast", async () => {
    const user = await createUser();
    const mine = await browserSignIn(user.email);
    const other = await browserSignIn(user.email, FIREFOX_WINDOWS);
    const target = (await listFor({ cookie: mine })).find((s) => !s.current)!;

    const res = await callRoute(profileSessions, "/profile/sessions", { cookie: mine, form: { intent: "end", id: target.id } });
    expect(res.status).toBe(302);
    expect(res.location).toBe("/profile#sessions");
    expect(res.headers.getSetCookie().join("\n")).toContain("medanim_toast=");
    expect((await callRoute(me, "/api/auth/me", { cookie: other })).status).toBe(401);
    expect((await callRoute(me, "/api/auth/me", { cookie: mine })).status).toBe(200);
    expect(await prisma.auditLog.count({ where: { action: "security.session_end", actorId: user.id } })).toBe(1);
  });

  it("Sign out on This device signs the browser out to /auth", async () => {
    const user = await createUser();
    const mine = await browserSignIn(user.email);
    const own = (await listFor({ cookie: mine })).find((s) => s.current)!;
    const res = await callRoute(profileSessions, "/profile/sessions", { cookie: mine, form: { intent: "end", id: own.id } });
    expect(res.location).toBe("/auth");
    expect(cookiesFrom(res, mine)).not.toContain("medanim_session=");
    expect((await callRoute(me, "/api/auth/me", { cookie: mine })).status).toBe(401);
  });

  it("Sign out everywhere else keeps this browser only", async () => {
    const user = await createUser();
    const mine = await browserSignIn(user.email);
    const other = await browserSignIn(user.email, FIREFOX_WINDOWS);
    const tokens = await apiSignIn(user.email);
    const res = await callRoute(profileSessions, "/profile/sessions", { cookie: mine, form: { intent: "end-others" } });
    expect(res.location).toBe("/profile#sessions");
    expect((await callRoute(me, "/api/auth/me", { cookie: other })).status).toBe(401);
    expect((await callRoute(me, "/api/auth/me", { token: tokens.accessToken })).status).toBe(401);
    expect(await listFor({ cookie: mine })).toEqual([expect.objectContaining({ current: true })]);
  });

  it("another account's session cannot be ended from the form; a form without a choice is a 400", async () => {
    const [owner, stranger] = await Promise.all([createUser(), createUser()]);
    const ownerCookie = await browserSignIn(owner.email);
    const strangerCookie = await browserSignIn(stranger.email, FIREFOX_WINDOWS);
    const target = (await listFor({ cookie: ownerCookie }))[0]!;
    const res = await callRoute(profileSessions, "/profile/sessions", { cookie: strangerCookie, form: { intent: "end", id: target.id } });
    expect(res.location).toBe("/profile#sessions");
    expect((await callRoute(me, "/api/auth/me", { cookie: ownerCookie })).status).toBe(200);
    expect((await callRoute(profileSessions, "/profile/sessions", { cookie: strangerCookie, form: { intent: "end" } })).status).toBe(400);
    expect((await callRoute(profileSessions, "/profile/sessions", { form: { intent: "end-others" } })).location).toMatch(/^\/auth\?redirectTo=/);
  });
});
