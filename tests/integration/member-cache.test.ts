import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb, prisma } from "~/lib/db.server.ts";
import { resetEnv } from "~/lib/env.server.ts";
import * as purchase from "~/routes/account/purchase.tsx";
import * as blockApi from "~/routes/api/admin/users.block.ts";
import * as logout from "~/routes/api/auth.logout.ts";
import * as me from "~/routes/api/auth.me.ts";
import * as testCheckout from "~/routes/checkout/test.tsx";
import { issueTokens } from "~/services/auth/credentials.server.ts";
import { createCatalogue } from "../helpers/catalogue.ts";
import { sendToApp } from "../helpers/app.ts";
import { accessTokenFor, createUser, sessionCookieFor } from "../helpers/factories.ts";
import { callRoute } from "../helpers/route.ts";

// The signed-in caller's kept rows (services/auth/member-cache.server.ts, decision 023), through
// the app's one door (createApp, as `npm start` builds it), with the cache on for a minute: only
// a write the app makes (or the age, where a case sets it short) may change what a member sees.
// "Kept" is proven as another instance's write would show it: a row changed behind the app's
// back, by SQL on the job library's connection, which Prisma never reports.

let catalogue: Awaited<ReturnType<typeof createCatalogue>>;

function setMemberCache(ms: number) {
  process.env.MEMBER_CACHE_MS = String(ms);
  resetEnv();
}

beforeAll(async () => {
  catalogue = await createCatalogue();
});

beforeEach(() => setMemberCache(60_000));

afterAll(() => {
  delete process.env.MEMBER_CACHE_MS;
  resetEnv();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** SQL the app's Prisma client does not run: what a write on another instance looks like here. */
function behindTheBack(sql: string, values: unknown[]) {
  return getDb().jobs.executeSql(sql, values);
}

async function rhinoplastyPage(cookie: string) {
  const page = await sendToApp(`/animations/${catalogue.rhinoplasty.slug}`, { headers: new Headers({ cookie }) });
  expect(page.status).toBe(200);
  const html = page.body.toString("utf8");
  return { holdsLicence: html.includes("Your License"), offered: html.includes("Unlock the Full Animation"), html };
}

describe("a member's rows are kept between their requests", () => {
  it("a licence granted on another instance shows within MEMBER_CACHE_MS, not before", async () => {
    const member = await createUser();
    const cookie = await sessionCookieFor(member.id);
    expect(await rhinoplastyPage(cookie)).toMatchObject({ holdsLicence: false, offered: true });

    await behindTheBack(
      `INSERT INTO "Subscription" (id, "userId", type, status, "startDate", "endDate", price, "animationId", "createdAt", "updatedAt")
       VALUES (gen_random_uuid(), $1, 'individual', 'active', now(), now() + interval '1 year', 149, $2, now(), now())`,
      [member.id, catalogue.rhinoplasty.id],
    );
    // Kept: this instance has not seen the write.
    expect(await rhinoplastyPage(cookie)).toMatchObject({ holdsLicence: false, offered: true });

    setMemberCache(150);
    await sleep(200);
    expect(await rhinoplastyPage(cookie)).toMatchObject({ holdsLicence: true, offered: false });
  });

  it("a purchase through the app shows on the member's next page", async () => {
    const member = await createUser();
    const cookie = await sessionCookieFor(member.id);
    expect(await rhinoplastyPage(cookie)).toMatchObject({ holdsLicence: false, offered: true });

    const started = await callRoute(purchase, `/purchase/individual/${catalogue.rhinoplasty.slug}`, {
      form: { intent: "checkout" },
      params: { idOrSlug: catalogue.rhinoplasty.slug },
      cookie,
    });
    const checkoutId = /\/checkout\/test\/([0-9a-f-]{36})$/.exec(started.location ?? "")?.[1];
    expect(checkoutId).toBeDefined();
    const paid = await callRoute(testCheckout, `/checkout/test/${checkoutId}`, { form: { intent: "pay" }, params: { checkoutId: checkoutId! }, cookie });
    expect(paid.status).toBe(303);

    expect(await rhinoplastyPage(cookie)).toMatchObject({ holdsLicence: true, offered: false });
  });

  it("a licence that runs out is gone at its end, with nothing written", async () => {
    const member = await createUser();
    const cookie = await sessionCookieFor(member.id);
    await prisma.subscription.create({
      data: {
        userId: member.id,
        type: "individual",
        status: "active",
        startDate: new Date(),
        endDate: new Date(Date.now() + 400),
        price: 149,
        animationId: catalogue.rhinoplasty.id,
      },
    });
    expect(await rhinoplastyPage(cookie)).toMatchObject({ holdsLicence: true });
    await sleep(450);
    expect(await rhinoplastyPage(cookie)).toMatchObject({ holdsLicence: false, offered: true });
  });

  it("a session that expires ends at its time, though its row is kept", async () => {
    const member = await createUser();
    const cookie = await sessionCookieFor(member.id);
    await prisma.session.updateMany({ where: { userId: member.id }, data: { expiresAt: new Date(Date.now() + 400) } });
    expect((await sendToApp("/dashboard", { headers: new Headers({ cookie }) })).status).toBe(200);
    await sleep(450);
    const after = await sendToApp("/dashboard", { headers: new Headers({ cookie }) });
    expect(after.status).toBe(302);
    expect(after.headers.get("Location")).toMatch(/^\/auth\?redirectTo=/);
  });
});

describe("an access token's signature is checked once (services/auth/credentials.server.ts)", () => {
  const asBearer = (token: string) => sendToApp("/api/auth/me", { headers: new Headers({ authorization: `Bearer ${token}` }) });

  it("still ends at its expiry", async () => {
    const member = await createUser();
    const token = await accessTokenFor(member.id);
    expect((await asBearer(token)).status).toBe(200);
    // Fifteen minutes and a second on: only the clock is moved (the app's timers keep running).
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 15 * 60 * 1000 + 1000 });
    try {
      const after = await asBearer(token);
      expect(after.status).toBe(401);
      expect(after.body.toString()).toContain("Authentication required");
    } finally {
      vi.useRealTimers();
    }
  });

  it("is checked again under another secret", async () => {
    const member = await createUser();
    const token = await accessTokenFor(member.id);
    expect((await asBearer(token)).status).toBe(200);
    const secret = process.env.JWT_SECRET;
    process.env.JWT_SECRET = "another-secret-of-at-least-32-characters";
    resetEnv();
    try {
      expect((await asBearer(token)).status).toBe(401);
    } finally {
      if (secret === undefined) delete process.env.JWT_SECRET;
      else process.env.JWT_SECRET = secret;
      resetEnv();
    }
    expect((await asBearer(token)).status).toBe(200);
  });
});

describe("what ends a sign-in or changes a member ends it on the next request", () => {
  it("an admin's block signs the member out at once", async () => {
    const admin = await createUser({ role: "admin" }, { secondFactor: true });
    const member = await createUser();
    const cookie = await sessionCookieFor(member.id);
    const token = await accessTokenFor(member.id);
    expect((await sendToApp("/dashboard", { headers: new Headers({ cookie }) })).status).toBe(200);
    expect((await callRoute(me, "/api/auth/me", { token })).status).toBe(200);

    const blocked = await callRoute(blockApi, `/api/admin/users/${member.id}/block`, {
      method: "POST",
      params: { id: member.id },
      token: await accessTokenFor(admin.id),
    });
    expect(blocked.status).toBe(200);

    expect((await sendToApp("/dashboard", { headers: new Headers({ cookie }) })).status).toBe(302);
    expect((await callRoute(me, "/api/auth/me", { token })).status).toBe(401);
  });

  it("signing out ends the access token of that sign-in at once", async () => {
    const member = await createUser();
    const tokens = await issueTokens(member.id);
    expect((await callRoute(me, "/api/auth/me", { token: tokens.accessToken })).status).toBe(200);
    expect((await callRoute(logout, "/api/auth/logout", { json: { refreshToken: tokens.refreshToken }, token: tokens.accessToken })).status).toBe(200);
    expect((await callRoute(me, "/api/auth/me", { token: tokens.accessToken })).status).toBe(401);
  });

  it("a premium upgrade and a name change show on the next request", async () => {
    const member = await createUser({ firstName: "Before" });
    const token = await accessTokenFor(member.id);
    const first = await callRoute(me, "/api/auth/me", { token });
    expect(first.body.user).toMatchObject({ firstName: "Before", accountType: "free" });
    await prisma.user.update({ where: { id: member.id }, data: { firstName: "After", accountType: "premium" } });
    const second = await callRoute(me, "/api/auth/me", { token });
    expect(second.body.user).toMatchObject({ firstName: "After", accountType: "premium" });
  });
});
