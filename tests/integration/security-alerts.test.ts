import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { getEnv } from "~/lib/env.server.ts";
import { resetMailTransport } from "~/lib/mail.server.ts";
import * as profilePage from "~/routes/account/profile.tsx";
import * as forgotApi from "~/routes/api/auth.forgot-password.ts";
import * as login from "~/routes/api/auth.login.ts";
import * as mfaVerify from "~/routes/api/auth.mfa.verify.ts";
import * as register from "~/routes/api/auth.register.ts";
import * as resetApi from "~/routes/api/auth.reset-password.ts";
import * as authPage from "~/routes/public/auth.tsx";
import * as twoStepPage from "~/routes/account/two-step.tsx";
import { createUser, sessionCookieFor, TEST_PASSWORD, totpCode, totpSecrets } from "../helpers/factories.ts";
import { useMailCapture } from "../helpers/mail-capture.ts";
import { callRoute } from "../helpers/route.ts";

// Security alerts: a sign-in from a device the account has not used, a factor added or
// removed, a password or e-mail change; each only while the account keeps emailSecurityAlerts on.

const mail = useMailCapture();

const CHROME_MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
const FIREFOX_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";

function alertsTo(email: string) {
  return mail.to(email).filter((m) => m.subject.includes("Security notice"));
}

async function browserSignIn(email: string, userAgent: string) {
  const res = await callRoute(authPage, "/auth", {
    form: { intent: "signin", email, password: TEST_PASSWORD },
    headers: { "User-Agent": userAgent },
    clientIp: "203.0.113.9",
  });
  expect(res.status).toBe(302);
  return res;
}

async function alertsOff(userId: string) {
  await prisma.notificationPreferences.update({ where: { userId }, data: { emailSecurityAlerts: false } });
}

describe("a sign-in from a new device", () => {
  it("is announced, except for the account's first device and a device it has used before", async () => {
    const user = await createUser();
    await browserSignIn(user.email, CHROME_MAC);
    expect(alertsTo(user.email)).toHaveLength(0);

    await browserSignIn(user.email, FIREFOX_WINDOWS);
    const alerts = alertsTo(user.email);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.text).toContain("Firefox on Windows");
    expect(alerts[0]!.text).toContain("203.0.113.9");
    expect(alerts[0]!.text).toContain("/profile#sessions");
    expect(alerts[0]!.text).not.toContain(TEST_PASSWORD);

    await browserSignIn(user.email, FIREFOX_WINDOWS);
    await browserSignIn(user.email, CHROME_MAC);
    expect(alertsTo(user.email)).toHaveLength(1);
  });

  it("is not announced after sign-up, on the device that signed up; the next new one is", async () => {
    const email = `alerts-${Date.now()}@example.com`;
    const signUp = {
      firstName: "Ada",
      lastName: "Lovelace",
      username: `ada_${Date.now()}`,
      email,
      password: TEST_PASSWORD,
      confirmPassword: TEST_PASSWORD,
      agreeToTerms: true,
    };
    expect((await callRoute(register, "/api/auth/register", { json: signUp, headers: { "User-Agent": "medanim-cli/1.0" } })).status).toBe(201);
    expect(alertsTo(email)).toHaveLength(0);
    const res = await callRoute(login, "/api/auth/login", { json: { email, password: TEST_PASSWORD }, headers: { "User-Agent": CHROME_MAC } });
    expect(res.status).toBe(200);
    expect(alertsTo(email).map((m) => m.text)).toEqual([expect.stringContaining("Chrome on macOS")]);
  });

  it("through the second step: announced without the code", async () => {
    const user = await createUser({}, { secondFactor: true });
    const first = await callRoute(login, "/api/auth/login", { json: { email: user.email, password: TEST_PASSWORD }, headers: { "User-Agent": CHROME_MAC } });
    const firstCode = await totpCode(totpSecrets.get(user.id)!);
    const firstVerified = await callRoute(mfaVerify, "/api/auth/mfa/verify", {
      json: { mfaToken: first.body.mfaToken, code: firstCode },
      headers: { "User-Agent": CHROME_MAC },
    });
    expect(firstVerified.status).toBe(200);
    expect(alertsTo(user.email)).toHaveLength(0);

    const second = await callRoute(login, "/api/auth/login", {
      json: { email: user.email, password: TEST_PASSWORD },
      headers: { "User-Agent": FIREFOX_WINDOWS },
    });
    // The next 30-s window's code: the first one cannot be used twice.
    const code = await totpCode(totpSecrets.get(user.id)!, 1);
    const verified = await callRoute(mfaVerify, "/api/auth/mfa/verify", {
      json: { mfaToken: second.body.mfaToken, code },
      headers: { "User-Agent": FIREFOX_WINDOWS },
    });
    expect(verified.status).toBe(200);
    const alerts = alertsTo(user.email);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.text).toContain("Firefox on Windows");
    expect(alerts[0]!.raw).not.toContain(code);
    expect(alerts[0]!.raw).not.toContain(second.body.mfaToken);
  });

  it("is not sent to an account with security alerts off", async () => {
    const user = await createUser();
    await alertsOff(user.id);
    await browserSignIn(user.email, CHROME_MAC);
    await browserSignIn(user.email, FIREFOX_WINDOWS);
    expect(mail.to(user.email)).toHaveLength(0);
    expect(await prisma.knownDevice.count({ where: { userId: user.id } })).toBe(2);
  });

  it("a mail server that fails does not fail the sign-in: logged as a failed mail", async () => {
    const user = await createUser();
    await browserSignIn(user.email, CHROME_MAC);
    const env = getEnv() as { SMTP_URL?: string };
    const working = env.SMTP_URL;
    // Nothing listens on port 9 (discard) here: the connection is refused.
    env.SMTP_URL = "smtp://127.0.0.1:9";
    resetMailTransport();
    try {
      const res = await browserSignIn(user.email, FIREFOX_WINDOWS);
      expect(res.location).toBe("/dashboard");
    } finally {
      env.SMTP_URL = working;
      resetMailTransport();
    }
    expect(await prisma.emailLog.findFirst({ where: { toEmail: user.email, status: "failed" } })).not.toBeNull();
    expect(alertsTo(user.email)).toHaveLength(0);
  });
});

describe("a second factor added or removed", () => {
  /** Sets the authenticator app up through /profile/two-step and removes it again. */
  async function addAndRemoveAuthenticator(userId: string) {
    const cookie = await sessionCookieFor(userId);
    await callRoute(twoStepPage, "/profile/two-step", { cookie, form: { intent: "start" } });
    const secret: string = (await callRoute(twoStepPage, "/profile/two-step", { cookie })).body.setup.secret;
    const confirmed = await callRoute(twoStepPage, "/profile/two-step", { cookie, form: { intent: "confirm", code: await totpCode(secret) } });
    expect(confirmed.body.codes).toHaveLength(10);
    const removed = await callRoute(twoStepPage, "/profile/two-step", { cookie, form: { intent: "remove" } });
    expect(removed.location).toBe("/profile#two-step");
  }

  it("sends the alert naming the factor, only while alerts are on", async () => {
    const user = await createUser();
    await addAndRemoveAuthenticator(user.id);
    const texts = alertsTo(user.email).map((m) => m.text);
    expect(texts).toEqual([expect.stringContaining("an authenticator app was added"), expect.stringContaining("an authenticator app was removed")]);
    expect(texts.join("\n")).not.toMatch(/\b\d{6}\b/);

    await alertsOff(user.id);
    await addAndRemoveAuthenticator(user.id);
    expect(alertsTo(user.email)).toHaveLength(2);
  });
});

describe("a password or e-mail change", () => {
  it("a password reset sends the alert, unless alerts are off", async () => {
    const [alerted, quiet] = await Promise.all([createUser(), createUser()]);
    await alertsOff(quiet.id);
    for (const user of [alerted, quiet]) {
      expect((await callRoute(forgotApi, "/api/auth/forgot-password", { json: { email: user.email } })).status).toBe(200);
      const token = await mail.tokenFrom(user.email, "/reset-password");
      const res = await callRoute(resetApi, "/api/auth/reset-password", { json: { token, password: "a-new-password-1", confirmPassword: "a-new-password-1" } });
      expect(res.status).toBe(200);
    }
    expect(alertsTo(alerted.email).map((m) => m.text)).toEqual([expect.stringContaining("Your password was just changed")]);
    expect(alertsTo(quiet.email)).toHaveLength(0);
  });

  it("an e-mail change from /profile alerts the old address, not the new one", async () => {
    const user = await createUser();
    const newEmail = `moved-${user.email}`;
    const res = await callRoute(profilePage, "/profile", {
      cookie: await sessionCookieFor(user.id),
      form: { intent: "update", firstName: user.firstName, lastName: user.lastName, username: user.username, email: newEmail },
    });
    expect(res.location).toBe("/profile");
    expect(alertsTo(user.email).map((m) => m.text)).toEqual([expect.stringContaining(`changed to ${newEmail}`)]);
    expect(alertsTo(newEmail)).toHaveLength(0);
  });
});
