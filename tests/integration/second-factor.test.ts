import crypto from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import * as adminHome from "~/routes/admin/dashboard.tsx";
import * as adminUsersApi from "~/routes/api/admin/users.ts";
import * as loginApi from "~/routes/api/auth.login.ts";
import * as meApi from "~/routes/api/auth.me.ts";
import * as verifyApi from "~/routes/api/auth.mfa.verify.ts";
import * as refreshApi from "~/routes/api/auth.refresh.ts";
import * as authPage from "~/routes/public/auth.tsx";
import * as twoStepPage from "~/routes/public/auth-two-step.tsx";
import { ACCOUNT_BLOCKED } from "~/services/auth/credentials.server.ts";
import { SECOND_FACTOR_REQUIRED } from "~/services/auth/guards.server.ts";
import { CODE_ACCOUNT_RULE, CODE_CLIENT_RULE, INVALID_CODE, regenerateRecoveryCodes } from "~/services/auth/second-factor.server.ts";
import { SIGN_IN_STEP_EXPIRED } from "~/services/auth/sign-in.server.ts";
import { MAX_CHALLENGE_ATTEMPTS } from "~/services/auth/challenges.server.ts";
import { createUser, TEST_PASSWORD, totpCode, totpSecrets } from "../helpers/factories.ts";
import { useMailCapture } from "../helpers/mail-capture.ts";
import { callRoute, type RouteResult } from "../helpers/route.ts";

// The second step of sign-in, through the /auth form and the /api: every refusal the
// issue lists leaves the account without a session or a token, and the happy path's tokens work.

useMailCapture();

/** A client address of its own per test: code guesses are limited per address. */
const someAddress = () => `10.${crypto.randomInt(256)}.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`;

type User = Awaited<ReturnType<typeof createUser>>;

const secretOf = (user: User) => totpSecrets.get(user.id)!;
/** A code that is not the account's now (ten windows ahead: outside any accepted drift). */
const wrongCode = (user: User) => totpCode(secretOf(user), 10);

async function mfaToken(user: User, clientIp = someAddress()): Promise<string> {
  const login = await callRoute(loginApi, "/api/auth/login", { json: { email: user.email, password: TEST_PASSWORD }, clientIp });
  expect(login.status).toBe(200);
  expect(login.body).toEqual({ mfaRequired: true, mfaToken: expect.any(String) });
  return login.body.mfaToken;
}

function verify(token: string, code: string, clientIp = someAddress()) {
  return callRoute(verifyApi, "/api/auth/mfa/verify", { json: { mfaToken: token, code }, clientIp });
}

/** Nothing was issued to the account: no refresh family, no session. */
async function expectSignedOut(user: User, answer: RouteResult) {
  expect(answer.body).not.toHaveProperty("accessToken");
  expect(answer.body).not.toHaveProperty("refreshToken");
  expect(await prisma.refreshToken.count({ where: { userId: user.id } })).toBe(0);
  expect(await prisma.session.count({ where: { userId: user.id } })).toBe(0);
}

function cookieNamed(answer: RouteResult, name: string) {
  return answer.headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith(`${name}=`) && !cookie.startsWith(`${name}=;`))
    ?.split(";")[0];
}

/** The /auth form's password step: the second-step cookie it sets. */
async function formPasswordStep(user: User, clientIp: string) {
  const answer = await callRoute(authPage, "/auth", { form: { intent: "signin", email: user.email, password: TEST_PASSWORD, redirectTo: "/admin" }, clientIp });
  expect(answer.location).toBe("/auth/two-step");
  const cookie = cookieNamed(answer, "medanim_2fa");
  expect(cookie).toBeDefined();
  return cookie!;
}

function formSecondStep(cookie: string, code: string, clientIp: string) {
  return callRoute(twoStepPage, "/auth/two-step", { form: { code }, cookie, clientIp });
}

describe("the /api second step", () => {
  it("happy path: the tokens from mfa/verify work for member and admin calls, and refresh works", async () => {
    const admin = await createUser({ role: "admin" });
    const token = await mfaToken(admin);
    const verified = await verify(token, await totpCode(secretOf(admin)));
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ accessToken: expect.any(String), refreshToken: expect.any(String), user: { id: admin.id } });
    expect((await callRoute(meApi, "/api/auth/me", { token: verified.body.accessToken })).status).toBe(200);
    expect((await callRoute(adminUsersApi, "/api/admin/users", { token: verified.body.accessToken })).status).toBe(200);
    const refreshed = await callRoute(refreshApi, "/api/auth/refresh", { json: { refreshToken: verified.body.refreshToken } });
    expect(refreshed.status).toBe(200);
    expect((await callRoute(adminUsersApi, "/api/admin/users", { token: refreshed.body.accessToken })).status).toBe(200);
  });

  it("a wrong code signs nothing in", async () => {
    const user = await createUser({}, { secondFactor: true });
    const answer = await verify(await mfaToken(user), await wrongCode(user));
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(INVALID_CODE);
    await expectSignedOut(user, answer);
  });

  it("a code already used (same 30-s window) signs nothing in", async () => {
    const user = await createUser({}, { secondFactor: true });
    const code = await totpCode(secretOf(user));
    expect((await verify(await mfaToken(user), code)).status).toBe(200);
    await prisma.refreshToken.deleteMany({ where: { userId: user.id } });
    const again = await verify(await mfaToken(user), code);
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(INVALID_CODE);
    await expectSignedOut(user, again);
  });

  it("an expired mfaToken signs nothing in, whatever the code", async () => {
    const user = await createUser({}, { secondFactor: true });
    const token = await mfaToken(user);
    await prisma.authChallenge.updateMany({ where: { userId: user.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const answer = await verify(token, await totpCode(secretOf(user)));
    expect(answer.status).toBe(401);
    expect(answer.body.message).toBe(SIGN_IN_STEP_EXPIRED);
    await expectSignedOut(user, answer);
  });

  it("a recovery code works once; used again it signs nothing in", async () => {
    const user = await createUser({}, { secondFactor: true });
    const [code] = await regenerateRecoveryCodes(user.id);
    expect((await verify(await mfaToken(user), code!)).status).toBe(200);
    await prisma.refreshToken.deleteMany({ where: { userId: user.id } });
    const again = await verify(await mfaToken(user), code!);
    expect(again.status).toBe(400);
    await expectSignedOut(user, again);
  });

  it("another user's mfaToken with your own code signs no one in", async () => {
    const victim = await createUser({}, { secondFactor: true });
    const attacker = await createUser({}, { secondFactor: true });
    const answer = await verify(await mfaToken(victim), await totpCode(secretOf(attacker)));
    expect(answer.status).toBe(400);
    await expectSignedOut(victim, answer);
    await expectSignedOut(attacker, answer);
  });

  it("a blocked user's factors do not help (403)", async () => {
    const user = await createUser({}, { secondFactor: true });
    const token = await mfaToken(user);
    await prisma.user.update({ where: { id: user.id }, data: { isActive: false } });
    const answer = await verify(token, await totpCode(secretOf(user)));
    expect(answer.status).toBe(403);
    expect(answer.body.message).toBe(ACCOUNT_BLOCKED);
    await expectSignedOut(user, answer);
  });

  it("an mfaToken works once: after its sign-in even a fresh recovery code is refused with it", async () => {
    const user = await createUser({}, { secondFactor: true });
    const [recovery] = await regenerateRecoveryCodes(user.id);
    const token = await mfaToken(user);
    expect((await verify(token, await totpCode(secretOf(user)))).status).toBe(200);
    const again = await verify(token, recovery!);
    expect(again.status).toBe(401);
    expect(again.body.message).toBe(SIGN_IN_STEP_EXPIRED);
    expect(await prisma.refreshToken.count({ where: { userId: user.id } })).toBe(1);
  });

  it(`${MAX_CHALLENGE_ATTEMPTS} wrong codes end the mfaToken: the right code is then refused with it`, async () => {
    const user = await createUser({}, { secondFactor: true });
    const token = await mfaToken(user);
    for (let i = 0; i < MAX_CHALLENGE_ATTEMPTS; i++) expect((await verify(token, await wrongCode(user))).status).toBe(400);
    const answer = await verify(token, await totpCode(secretOf(user)));
    expect(answer.status).toBe(401);
    await expectSignedOut(user, answer);
  });

  it("code guessing is limited per account, from any address: 429 with Retry-After", async () => {
    const user = await createUser({}, { secondFactor: true });
    for (let guessed = 0; guessed < CODE_ACCOUNT_RULE.limit;) {
      const token = await mfaToken(user);
      for (let i = 0; i < MAX_CHALLENGE_ATTEMPTS && guessed < CODE_ACCOUNT_RULE.limit; i++, guessed++) {
        expect((await verify(token, await wrongCode(user))).status).toBe(400);
      }
    }
    const limited = await verify(await mfaToken(user), await totpCode(secretOf(user)));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    await expectSignedOut(user, limited);
  });

  it("code guessing is limited per address, across accounts: 429 with Retry-After", async () => {
    const clientIp = someAddress();
    for (let guessed = 0; guessed < CODE_CLIENT_RULE.limit;) {
      const user = await createUser({}, { secondFactor: true });
      const token = await mfaToken(user);
      for (let i = 0; i < MAX_CHALLENGE_ATTEMPTS && guessed < CODE_CLIENT_RULE.limit; i++, guessed++) {
        expect((await verify(token, await wrongCode(user), clientIp)).status).toBe(400);
      }
    }
    const fresh = await createUser({}, { secondFactor: true });
    const limited = await verify(await mfaToken(fresh), await totpCode(secretOf(fresh)), clientIp);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    await expectSignedOut(fresh, limited);
    // Another address is not held back by it.
    expect((await verify(await mfaToken(fresh), await totpCode(secretOf(fresh)))).status).toBe(200);
  });
});

describe("an office behind one address", () => {
  it("signs in with 40 right codes over 20 minutes and is never held up; the 21st wrong code is", async () => {
    const office = someAddress();
    const staff = await Promise.all(Array.from({ length: 4 }, () => createUser({}, { secondFactor: true })));
    const start = Date.now();
    try {
      for (let i = 0; i < 40; i++) {
        // A new 30-s window each time: a code is accepted once.
        vi.useFakeTimers({ toFake: ["Date"], now: start + i * 30_000 });
        const user = staff[i % staff.length]!;
        const answer = await verify(await mfaToken(user, office), await totpCode(secretOf(user)), office);
        expect(answer.status, `right code ${i + 1}`).toBe(200);
      }
      // The same address's wrong codes still add up, across the same staff: 20 are answered.
      for (let i = 0; i < CODE_CLIENT_RULE.limit; i++) {
        const user = staff[i % staff.length]!;
        expect((await verify(await mfaToken(user, office), await wrongCode(user), office)).status, `wrong code ${i + 1}`).toBe(400);
      }
      const user = staff[0]!;
      const limited = await verify(await mfaToken(user, office), await wrongCode(user), office);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
      // And a right code from there waits too: the limit is on the address.
      vi.setSystemTime(Date.now() + 30_000);
      expect((await verify(await mfaToken(user, office), await totpCode(secretOf(user)), office)).status).toBe(429);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a right code does not clear the account's earlier wrong codes", async () => {
    const user = await createUser({}, { secondFactor: true });
    const start = Date.now();
    try {
      for (let i = 0; i < CODE_ACCOUNT_RULE.limit - 1; i++) expect((await verify(await mfaToken(user), await wrongCode(user))).status).toBe(400);
      vi.useFakeTimers({ toFake: ["Date"], now: start + 30_000 });
      expect((await verify(await mfaToken(user), await totpCode(secretOf(user)))).status).toBe(200);
      // One wrong code left before the limit, as before the right one.
      expect((await verify(await mfaToken(user), await wrongCode(user))).status).toBe(400);
      vi.setSystemTime(start + 60_000);
      expect((await verify(await mfaToken(user), await totpCode(secretOf(user)))).status).toBe(429);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("the /auth form's second step", () => {
  it("happy path: the right code opens a session that reaches the back office", async () => {
    const admin = await createUser({ role: "admin" });
    const clientIp = someAddress();
    const answer = await formSecondStep(await formPasswordStep(admin, clientIp), await totpCode(secretOf(admin)), clientIp);
    expect(answer.location).toBe("/admin");
    const session = cookieNamed(answer, "medanim_session");
    expect(session).toBeDefined();
    expect((await callRoute(adminHome, "/admin", { cookie: session })).status).toBe(200);
  });

  it("a wrong code, a reused code, a used recovery code and another account's code open no session", async () => {
    const user = await createUser({}, { secondFactor: true });
    const other = await createUser({}, { secondFactor: true });
    const clientIp = someAddress();
    const [recovery] = await regenerateRecoveryCodes(user.id);
    const code = await totpCode(secretOf(user));
    const signIn = async (typed: string) => formSecondStep(await formPasswordStep(user, clientIp), typed, clientIp);

    const wrong = await signIn(await wrongCode(user));
    expect(wrong.status).toBe(400);
    expect(JSON.stringify(wrong.body)).toContain(INVALID_CODE);
    expect(cookieNamed(wrong, "medanim_session")).toBeUndefined();
    expect((await signIn(await totpCode(secretOf(other)))).status).toBe(400);

    expect((await signIn(code)).location).toBe("/admin");
    expect((await signIn(recovery!)).location).toBe("/admin");
    await prisma.session.deleteMany({ where: { userId: user.id } });
    for (const used of [code, recovery!]) {
      const again = await signIn(used);
      expect(again.status).toBe(400);
      expect(cookieNamed(again, "medanim_session")).toBeUndefined();
    }
    await expectSignedOut(user, wrong);
  });

  it("an expired or used second step goes back to /auth; a blocked account is refused", async () => {
    const user = await createUser({}, { secondFactor: true });
    const clientIp = someAddress();
    const expiring = await formPasswordStep(user, clientIp);
    await prisma.authChallenge.updateMany({ where: { userId: user.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await formSecondStep(expiring, await totpCode(secretOf(user)), clientIp);
    expect(expired.location).toBe("/auth");
    expect(cookieNamed(expired, "medanim_session")).toBeUndefined();

    const once = await formPasswordStep(user, clientIp);
    expect((await formSecondStep(once, await totpCode(secretOf(user)), clientIp)).location).toBe("/admin");
    const [recovery] = await regenerateRecoveryCodes(user.id);
    const replayed = await formSecondStep(once, recovery!, clientIp);
    expect(replayed.location).toBe("/auth");
    expect(cookieNamed(replayed, "medanim_session")).toBeUndefined();
    await prisma.session.deleteMany({ where: { userId: user.id } });

    const blocking = await formPasswordStep(user, clientIp);
    await prisma.user.update({ where: { id: user.id }, data: { isActive: false } });
    const blocked = await formSecondStep(blocking, await totpCode(secretOf(user)), clientIp);
    expect(blocked.status).toBe(403);
    expect(JSON.stringify(blocked.body)).toContain(ACCOUNT_BLOCKED);
    await expectSignedOut(user, blocked);
  });
});

describe("an admin without a second factor", () => {
  it("is sent to set one up from the admin pages, and refused admin calls with secondFactorRequired", async () => {
    const admin = await createUser({ role: "admin" }, { secondFactor: false });
    const clientIp = someAddress();
    const signedIn = await callRoute(authPage, "/auth", {
      form: { intent: "signin", email: admin.email, password: TEST_PASSWORD, redirectTo: "/admin" },
      clientIp,
    });
    expect(signedIn.location).toBe("/profile/two-step?redirectTo=%2Fadmin");
    const cookie = cookieNamed(signedIn, "medanim_session");
    const page = await callRoute(adminHome, "/admin", { cookie });
    expect(page.location).toBe("/profile/two-step?redirectTo=%2Fadmin");

    const login = await callRoute(loginApi, "/api/auth/login", { json: { email: admin.email, password: TEST_PASSWORD }, clientIp });
    expect(login.status).toBe(200);
    const refused = await callRoute(adminUsersApi, "/api/admin/users", { token: login.body.accessToken });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: SECOND_FACTOR_REQUIRED, secondFactorRequired: true });
  });
});
