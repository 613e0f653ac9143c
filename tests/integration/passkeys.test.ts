import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";
import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import * as signInPage from "~/routes/public/auth.tsx";
import * as passkeyOptions from "~/routes/public/auth-passkey-options.ts";
import * as passkeyAnswer from "~/routes/public/auth-passkey.ts";
import * as profilePage from "~/routes/account/profile.tsx";
import * as removeRoute from "~/routes/account/passkeys.ts";
import * as registrationOptions from "~/routes/account/passkeys.options.ts";
import * as registration from "~/routes/account/passkeys.register.ts";
import { ACCOUNT_BLOCKED } from "~/services/auth/credentials.server.ts";
import { PASSKEY_EXPIRED, PASSKEY_NOT_VERIFIED, PASSKEY_UNKNOWN } from "~/services/auth/passkeys.server.ts";
import { SIGN_IN_STEP_EXPIRED } from "~/services/auth/sign-in.server.ts";
import { createUser, sessionCookieFor, TEST_PASSWORD } from "../helpers/factories.ts";
import { sendToApp } from "../helpers/app.ts";
import { callRoute, cookiesFrom } from "../helpers/route.ts";
import { SoftwareAuthenticator } from "../helpers/webauthn-authenticator.ts";

// Passkeys through the front door, answered by a software authenticator the real verifier
// (@simplewebauthn/server) checks: registration on /profile, a first-factor sign-in, the second
// step after a password, step-up, and each refusal they make.

let clients = 0;
/** A client address of its own per call, so the anonymous challenge limit never mixes tests. */
const clientIp = () => `198.51.100.${(clients++ % 250) + 1}`;

async function registerPasskey(cookie: string, authenticator = new SoftwareAuthenticator(), name?: string) {
  const options = await callRoute(registrationOptions, "/profile/passkeys/options", { json: {}, cookie });
  expect(options.status).toBe(200);
  const response = authenticator.register(options.body.options as PublicKeyCredentialCreationOptionsJSON);
  const res = await callRoute(registration, "/profile/passkeys/register", { json: { token: options.body.token, response, ...(name ? { name } : {}) }, cookie });
  return { res, authenticator };
}

async function userWithPasskey() {
  const user = await createUser();
  const { res, authenticator } = await registerPasskey(await sessionCookieFor(user.id));
  expect(res.status).toBe(201);
  return { user, authenticator };
}

type Purpose = "sign-in" | "two-step" | "step-up";

async function challenge(purpose: Purpose, cookie?: string) {
  const res = await callRoute(passkeyOptions, "/auth/passkey/options", { json: { purpose }, cookie, clientIp: clientIp() });
  return { res, token: res.body?.token as string, options: res.body?.options as PublicKeyCredentialRequestOptionsJSON };
}

function answer(purpose: Purpose, token: string, response: unknown, cookie?: string, redirectTo?: string) {
  return callRoute(passkeyAnswer, "/auth/passkey", { json: { purpose, token, response, ...(redirectTo ? { redirectTo } : {}) }, cookie, clientIp: clientIp() });
}

async function passwordStep(email: string) {
  const res = await callRoute(signInPage, "/auth", {
    form: { intent: "signin", email, password: TEST_PASSWORD, redirectTo: "/billing" },
    clientIp: clientIp(),
  });
  expect(res.location).toBe("/auth/two-step");
  return cookiesFrom(res);
}

async function sessionOf(setCookieResult: Awaited<ReturnType<typeof callRoute>>) {
  const cookie = cookiesFrom(setCookieResult);
  expect(cookie).toMatch(/medanim_session=/);
  const profile = await callRoute(profilePage, "/profile", { cookie });
  return { cookie, profile };
}

describe("registering a passkey on /profile", () => {
  it("stores the passkey with its audit entry, named from the form or the device", async () => {
    const user = await createUser();
    const cookie = await sessionCookieFor(user.id);
    const named = await registerPasskey(cookie, undefined, "Office laptop");
    expect(named.res.status).toBe(201);
    expect(named.res.body.passkey).toEqual({ id: named.authenticator.id, name: "Office laptop" });
    const unnamed = await registerPasskey(cookie);
    expect(unnamed.res.status).toBe(201);
    expect(unnamed.res.body.passkey.name).toBe("Passkey on Unknown device");

    const rows = await prisma.passkey.findMany({ where: { userId: user.id }, orderBy: { createdAt: "asc" } });
    expect(rows.map((row) => row.name)).toEqual(["Office laptop", "Passkey on Unknown device"]);
    expect(rows[0]).toMatchObject({ id: named.authenticator.id, counter: 0n, transports: ["internal"], deviceType: "singleDevice" });
    const audit = await prisma.auditLog.findMany({ where: { actorId: user.id, action: "security.passkey_add" } });
    expect(audit).toHaveLength(2);
    const profile = await callRoute(profilePage, "/profile", { cookie });
    expect(profile.body.passkeys.map((row: { name: string }) => row.name)).toEqual(["Office laptop", "Passkey on Unknown device"]);
  });

  it("ends the account's other sign-ins that used only the password, and counts the one that registered as confirmed", async () => {
    const user = await createUser({}, { secondFactor: false });
    const here = await sessionCookieFor(user.id, { stepUp: "never" });
    const elsewhere = await sessionCookieFor(user.id, { stepUp: "never" });
    expect((await registerPasskey(here)).res.status).toBe(201);
    expect((await callRoute(profilePage, "/profile", { cookie: elsewhere })).location).toBe("/auth?redirectTo=%2Fprofile");
    expect((await callRoute(profilePage, "/profile", { cookie: here })).status).toBe(200);
    const sessions = await prisma.session.findMany({ where: { userId: user.id }, select: { stepUpAt: true } });
    expect(sessions).toEqual([{ stepUpAt: expect.any(Date) }]);
    expect(await prisma.auditLog.count({ where: { actorId: user.id, action: "security.session_end" } })).toBe(1);
  });

  it("excludes the user's passkeys from new registrations and refuses registering one twice", async () => {
    const { user, authenticator } = await userWithPasskey();
    const cookie = await sessionCookieFor(user.id);
    const again = await registerPasskey(cookie, authenticator);
    expect(again.res.status).toBe(409);
    expect(again.res.body.message).toBe("This passkey is already registered.");
    const options = await callRoute(registrationOptions, "/profile/passkeys/options", { json: {}, cookie });
    expect(options.body.options.excludeCredentials).toEqual([{ id: authenticator.id, type: "public-key", transports: ["internal"] }]);
    expect(options.body.options.authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "preferred" });
  });

  it("401 when signed out; a challenge works once and only for the user it was made for", async () => {
    const anonymous = await callRoute(registrationOptions, "/profile/passkeys/options", { json: {} });
    expect(anonymous.status).toBe(401);

    const [owner, other] = await Promise.all([createUser(), createUser()]);
    const ownerCookie = await sessionCookieFor(owner.id);
    const options = await callRoute(registrationOptions, "/profile/passkeys/options", { json: {}, cookie: ownerCookie });
    const authenticator = new SoftwareAuthenticator();
    const response = authenticator.register(options.body.options);
    const stolen = await callRoute(registration, "/profile/passkeys/register", {
      json: { token: options.body.token, response },
      cookie: await sessionCookieFor(other.id),
    });
    expect(stolen.status).toBe(400);
    expect(stolen.body.message).toBe(PASSKEY_EXPIRED);
    expect(await prisma.passkey.count({ where: { id: authenticator.id } })).toBe(0);

    const first = await callRoute(registration, "/profile/passkeys/register", { json: { token: options.body.token, response }, cookie: ownerCookie });
    expect(first.status).toBe(201);
    const replay = await callRoute(registration, "/profile/passkeys/register", { json: { token: options.body.token, response }, cookie: ownerCookie });
    expect(replay.status).toBe(400);
    expect(replay.body.message).toBe(PASSKEY_EXPIRED);
  });

  it("refuses an attestation for another origin, and malformed answers with 400", async () => {
    const user = await createUser();
    const cookie = await sessionCookieFor(user.id);
    const options = await callRoute(registrationOptions, "/profile/passkeys/options", { json: {}, cookie });
    const phishing = new SoftwareAuthenticator("https://medanim.example.net").register(options.body.options);
    const res = await callRoute(registration, "/profile/passkeys/register", { json: { token: options.body.token, response: phishing }, cookie });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(PASSKEY_NOT_VERIFIED);
    for (const response of [null, "x", { id: 5 }, { id: "a", rawId: "a", type: "public-key", response: { clientDataJSON: "!" } }]) {
      const bad = await callRoute(registration, "/profile/passkeys/register", { json: { token: "t", response }, cookie });
      expect(bad.status).toBe(400);
    }
    expect(await prisma.passkey.count({ where: { userId: user.id } })).toBe(0);
  });
});

describe("signing in with a passkey", () => {
  it("answers 4xx, never 500, to a body that is not the expected JSON", async () => {
    const notJson = await callRoute(passkeyAnswer, "/auth/passkey", { method: "POST", body: "{", headers: { "Content-Type": "application/json" } });
    expect(notJson.status).toBe(400);
    expect(notJson.body.message).toBe("Request body must be valid JSON");
    const form = await callRoute(passkeyAnswer, "/auth/passkey", { form: { purpose: "sign-in" } });
    expect(form.status).toBe(400);
    const purpose = await callRoute(passkeyOptions, "/auth/passkey/options", { json: { purpose: "admin" } });
    expect(purpose.status).toBe(400);
    expect(purpose.body.message).toBe("Unknown passkey request");
    const unknownToken = await answer("sign-in", "no-such-token", new SoftwareAuthenticator().assert({ challenge: "AAAA", rpId: "localhost" }));
    expect(unknownToken.status).toBe(400);
    expect(unknownToken.body.message).toBe(PASSKEY_EXPIRED);
  });

  it("is a first factor on its own: a session that counts as a step-up, the counter and last use kept", async () => {
    const { user, authenticator } = await userWithPasskey();
    const { token, options, res: optionsRes } = await challenge("sign-in");
    expect(optionsRes.status).toBe(200);
    expect(options.allowCredentials ?? []).toEqual([]);
    expect(options.userVerification).toBe("required");
    const res = await answer("sign-in", token, authenticator.assert(options), undefined, "/billing");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ redirectTo: "/billing" });
    const { profile } = await sessionOf(res);
    expect(profile.status).toBe(200);
    expect(profile.body.user.id).toBe(user.id);
    const session = await prisma.session.findFirstOrThrow({ where: { userId: user.id, userAgent: null }, orderBy: { createdAt: "desc" } });
    expect(session.stepUpAt).not.toBeNull();
    const passkey = await prisma.passkey.findUniqueOrThrow({ where: { id: authenticator.id } });
    expect(passkey.counter).toBe(1n);
    expect(passkey.lastUsedAt).not.toBeNull();
  });

  it("refuses a replayed assertion, with its own challenge or a new one, and a counter that does not move forward", async () => {
    const { authenticator } = await userWithPasskey();
    const first = await challenge("sign-in");
    const assertion = authenticator.assert(first.options);
    expect((await answer("sign-in", first.token, assertion)).status).toBe(200);

    const sameChallenge = await answer("sign-in", first.token, assertion);
    expect(sameChallenge.status).toBe(400);
    expect(sameChallenge.body.message).toBe(PASSKEY_EXPIRED);
    expect(cookiesFrom(sameChallenge)).not.toMatch(/medanim_session=/);

    const fresh = await challenge("sign-in");
    const replayed = await answer("sign-in", fresh.token, assertion);
    expect(replayed.status).toBe(400);
    expect(replayed.body.message).toBe(PASSKEY_NOT_VERIFIED);

    const cloned = await challenge("sign-in");
    const stale = await answer("sign-in", cloned.token, authenticator.assert(cloned.options, { counter: 1 }));
    expect(stale.status).toBe(400);
    expect(stale.body.message).toBe(PASSKEY_NOT_VERIFIED);
  });

  it("a blocked user's passkey does not sign in; an unknown passkey is refused", async () => {
    const { user, authenticator } = await userWithPasskey();
    await prisma.user.update({ where: { id: user.id }, data: { isActive: false } });
    const blocked = await challenge("sign-in");
    const res = await answer("sign-in", blocked.token, authenticator.assert(blocked.options));
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(ACCOUNT_BLOCKED);
    expect(cookiesFrom(res)).not.toMatch(/medanim_session=/);

    const stranger = await challenge("sign-in");
    const unknown = await answer("sign-in", stranger.token, new SoftwareAuthenticator().assert(stranger.options));
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe(PASSKEY_UNKNOWN);
  });
});

describe("a passkey as the second step after a password", () => {
  it("completes the sign-in for the account whose password was right, once", async () => {
    const { user, authenticator } = await userWithPasskey();
    const stepCookie = await passwordStep(user.email);
    const { token, options } = await challenge("two-step", stepCookie);
    expect(options.allowCredentials).toEqual([{ id: authenticator.id, type: "public-key", transports: ["internal"] }]);
    const res = await answer("two-step", token, authenticator.assert(options), stepCookie);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ redirectTo: "/billing" });
    const { cookie, profile } = await sessionOf(res);
    expect(cookie).not.toMatch(/medanim_2fa=/);
    expect(profile.body.user.id).toBe(user.id);

    // The password step is spent: neither a new challenge nor a second answer continues it.
    const again = await challenge("two-step", stepCookie);
    expect(again.res.status).toBe(401);
    expect(again.res.body.message).toBe(SIGN_IN_STEP_EXPIRED);
  });

  it("refuses another user's passkey and a challenge made for another user", async () => {
    const [{ user }, other] = await Promise.all([userWithPasskey(), userWithPasskey()]);
    const stepCookie = await passwordStep(user.email);
    const mine = await challenge("two-step", stepCookie);
    const wrongKey = await answer("two-step", mine.token, other.authenticator.assert({ ...mine.options, allowCredentials: [] }), stepCookie);
    expect(wrongKey.status).toBe(400);
    expect(wrongKey.body.message).toBe(PASSKEY_UNKNOWN);

    // The other user's own step-up challenge, answered by their passkey, does not finish this sign-in.
    const theirs = await challenge("step-up", await sessionCookieFor(other.user.id));
    const res = await answer("two-step", theirs.token, other.authenticator.assert(theirs.options), stepCookie);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(PASSKEY_EXPIRED);
    expect(cookiesFrom(res)).not.toMatch(/medanim_session=/);
  });

  it("without the password step there is no challenge", async () => {
    const res = await challenge("two-step");
    expect(res.res.status).toBe(401);
    expect(res.res.body.message).toBe(SIGN_IN_STEP_EXPIRED);
  });
});

describe("step-up with a passkey and removing one", () => {
  it("removing a passkey needs a recent step-up, which a passkey gives", async () => {
    const { user, authenticator } = await userWithPasskey();
    const cookie = await sessionCookieFor(user.id, { stepUp: "earlier" });
    const refused = await callRoute(removeRoute, "/profile/passkeys", { form: { passkeyId: authenticator.id }, cookie });
    expect(refused.status).toBe(302);
    expect(refused.location).toBe(`/auth/step-up?redirectTo=${encodeURIComponent("/profile/passkeys")}`);
    expect(await prisma.passkey.count({ where: { userId: user.id } })).toBe(1);

    const { token, options } = await challenge("step-up", cookie);
    const stepUp = await answer("step-up", token, authenticator.assert(options), cookie, "/profile");
    expect(stepUp.status).toBe(200);
    expect(stepUp.body).toEqual({ redirectTo: "/profile" });
    expect(await prisma.auditLog.count({ where: { actorId: user.id, action: "security.step_up", summary: { contains: "a passkey" } } })).toBe(1);

    const removed = await callRoute(removeRoute, "/profile/passkeys", { form: { passkeyId: authenticator.id }, cookie });
    expect(removed.location).toBe("/profile#passkeys");
    expect(await prisma.passkey.count({ where: { userId: user.id } })).toBe(0);
    expect(await prisma.auditLog.count({ where: { actorId: user.id, action: "security.passkey_remove" } })).toBe(1);
  });

  it("a step-up challenge is the signed-in user's: another's token or passkey does not confirm", async () => {
    const [mine, theirs] = await Promise.all([userWithPasskey(), userWithPasskey()]);
    const myCookie = await sessionCookieFor(mine.user.id, { stepUp: "earlier" });
    const theirCookie = await sessionCookieFor(theirs.user.id, { stepUp: "earlier" });
    const theirChallenge = await challenge("step-up", theirCookie);
    const borrowed = await answer("step-up", theirChallenge.token, theirs.authenticator.assert(theirChallenge.options), myCookie);
    expect(borrowed.status).toBe(400);
    expect(borrowed.body.message).toBe(PASSKEY_EXPIRED);

    const myChallenge = await challenge("step-up", myCookie);
    const wrongKey = await answer("step-up", myChallenge.token, theirs.authenticator.assert(myChallenge.options), myCookie);
    expect(wrongKey.status).toBe(400);
    expect(wrongKey.body.message).toBe(PASSKEY_UNKNOWN);
    expect(await prisma.auditLog.count({ where: { actorId: { in: [mine.user.id, theirs.user.id] }, action: "security.step_up" } })).toBe(0);

    const signedOut = await challenge("step-up");
    expect(signedOut.res.status).toBe(401);
  });

  it("a passkey of another account cannot be removed", async () => {
    const [mine, theirs] = await Promise.all([userWithPasskey(), userWithPasskey()]);
    const res = await callRoute(removeRoute, "/profile/passkeys", {
      form: { passkeyId: theirs.authenticator.id },
      cookie: await sessionCookieFor(mine.user.id),
    });
    expect(res.location).toBe("/profile#passkeys");
    expect(await prisma.passkey.count({ where: { id: theirs.authenticator.id } })).toBe(1);
  });
});

describe("without JavaScript", () => {
  it("the pages say passkeys need it, and Remove is a plain form", async () => {
    const signIn = (await sendToApp("/auth", {})).body.toString("utf8");
    expect(signIn).toContain("Passkeys need JavaScript in your browser.");
    const { user, authenticator } = await userWithPasskey();
    const profile = (await sendToApp("/profile", { headers: new Headers({ Cookie: await sessionCookieFor(user.id) }) })).body.toString("utf8");
    expect(profile).toContain("Passkeys need JavaScript in your browser.");
    expect(profile).toContain(`action="/profile/passkeys" method="post"><input type="hidden" name="passkeyId" value="${authenticator.id}"/>`);
  });
});
