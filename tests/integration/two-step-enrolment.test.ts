import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import * as adminDashboard from "~/routes/admin/dashboard.tsx";
import * as profilePage from "~/routes/account/profile.tsx";
import * as twoStepPage from "~/routes/account/two-step.tsx";
import * as authPage from "~/routes/public/auth.tsx";
import * as secondStepPage from "~/routes/public/auth-two-step.tsx";
import * as adminDashboardApi from "~/routes/api/admin/dashboard.ts";
import * as loginApi from "~/routes/api/auth.login.ts";
import * as refreshApi from "~/routes/api/auth.refresh.ts";
import * as stepUpApi from "~/routes/api/auth.step-up.ts";
import { STEP_UP_REQUIRED } from "~/services/auth/guards.server.ts";
import { accessTokenFor, createUser, enrolTotp, sessionCookieFor, TEST_PASSWORD, totpCode } from "../helpers/factories.ts";
import { useMailCapture } from "../helpers/mail-capture.ts";
import { callRoute, cookiesFrom } from "../helpers/route.ts";

// The authenticator app from first sign-in to everyday use, through the pages a browser posts
// to (the /api flow and each refusal: second-factor.test.ts).

const mail = useMailCapture();

async function signInWithPassword(email: string, clientIp: string) {
  return callRoute(authPage, "/auth", { form: { intent: "signin", email, password: TEST_PASSWORD, redirectTo: "/admin" }, clientIp });
}

describe("setting up the authenticator app", () => {
  it("walks an admin without a factor from sign-in to the set-up page, and the back office stays shut until it is done", async () => {
    const admin = await createUser({ role: "admin" }, { secondFactor: false });
    const signedIn = await signInWithPassword(admin.email, "10.26.0.1");
    expect(signedIn.location).toBe("/profile/two-step?redirectTo=%2Fadmin");
    const cookie = cookiesFrom(signedIn);
    const back = await callRoute(adminDashboard, "/admin", { cookie });
    expect(back.location).toBe("/profile/two-step?redirectTo=%2Fadmin");
  });

  it("shows a secret, refuses a wrong code, turns on with a right one and shows ten recovery codes once", async () => {
    const admin = await createUser({ role: "admin" }, { secondFactor: false });
    const cookie = await sessionCookieFor(admin.id, { stepUp: "never" });
    const before = await callRoute(twoStepPage, "/profile/two-step?redirectTo=/admin", { cookie });
    expect(before.body.setup).toBeNull();

    const started = await callRoute(twoStepPage, "/profile/two-step", { cookie, form: { intent: "start", redirectTo: "/admin" } });
    expect(started.location).toBe("/profile/two-step?redirectTo=%2Fadmin");
    const page = await callRoute(twoStepPage, "/profile/two-step?redirectTo=/admin", { cookie });
    const secret: string = page.body.setup.secret;
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(page.body.setup.qr).toContain("<svg");
    // The database holds it sealed, never in clear.
    const stored = await prisma.totpFactor.findUniqueOrThrow({ where: { userId: admin.id } });
    expect(stored.secret).not.toContain(secret);
    expect(stored.confirmedAt).toBeNull();

    const wrong = await callRoute(twoStepPage, "/profile/two-step", { cookie, form: { intent: "confirm", code: "000000", redirectTo: "/admin" } });
    expect(wrong.status).toBe(400);
    expect(JSON.stringify(wrong.body)).toContain("That code is not valid. Check your authenticator app and try again.");

    const right = await callRoute(twoStepPage, "/profile/two-step", {
      cookie,
      form: { intent: "confirm", code: await totpCode(secret), redirectTo: "/admin" },
    });
    expect(right.status).toBe(200);
    expect(right.body.codes).toHaveLength(10);
    expect(new Set(right.body.codes).size).toBe(10);
    expect(right.body.codesText).toContain(right.body.codes[0]);
    const hashes = await prisma.recoveryCode.findMany({ where: { userId: admin.id } });
    expect(hashes.map((row) => row.codeHash)).not.toContain(right.body.codes[0]);
    expect(await prisma.auditLog.count({ where: { actorId: admin.id, action: "security.totp_enable" } })).toBe(1);

    // The page now says it is on and never shows the codes again.
    const after = await callRoute(twoStepPage, "/profile/two-step", { cookie });
    expect(after.body.summary).toMatchObject({ totpEnabled: true, recoveryCodesLeft: 10 });
    expect(JSON.stringify(after.body)).not.toContain(right.body.codes[0]);
    const profile = await callRoute(profilePage, "/profile", { cookie });
    expect(profile.body.factors).toMatchObject({ totpEnabled: true, any: true });
    // The back office opens.
    expect((await callRoute(adminDashboard, "/admin", { cookie })).status).toBe(200);
  });

  it("asks for the code after the password, signs in with it once, and takes a recovery code once", async () => {
    const admin = await createUser({ role: "admin" }, { secondFactor: false });
    const cookie = await sessionCookieFor(admin.id, { stepUp: "never" });
    await callRoute(twoStepPage, "/profile/two-step", { cookie, form: { intent: "start" } });
    const secret: string = (await callRoute(twoStepPage, "/profile/two-step", { cookie })).body.setup.secret;
    const enrolmentCode = await totpCode(secret);
    const { codes } = (await callRoute(twoStepPage, "/profile/two-step", { cookie, form: { intent: "confirm", code: enrolmentCode } })).body;

    const password = await signInWithPassword(admin.email, "10.26.0.2");
    expect(password.location).toBe("/auth/two-step");
    const pending = cookiesFrom(password);
    expect(pending).toContain("medanim_2fa=");
    expect(pending).not.toContain("medanim_session=");

    // The code the enrolment used is spent (the very code: asking for "this window's" again
    // failed when the 30-s window turned between the two calls).
    const replay = await callRoute(secondStepPage, "/auth/two-step", { cookie: pending, form: { code: enrolmentCode }, clientIp: "10.26.0.2" });
    expect(replay.status).toBe(400);
    const next = await callRoute(secondStepPage, "/auth/two-step", { cookie: pending, form: { code: await totpCode(secret, 1) }, clientIp: "10.26.0.2" });
    expect(next.location).toBe("/admin");
    const session = cookiesFrom(next);
    expect(session).toContain("medanim_session=");
    expect(session).not.toContain("medanim_2fa=");
    expect((await callRoute(adminDashboard, "/admin", { cookie: session })).status).toBe(200);
    const row = await prisma.session.findFirstOrThrow({ where: { userId: admin.id }, orderBy: { createdAt: "desc" } });
    expect(row.stepUpAt).not.toBeNull();

    // The second step works once.
    const again = await callRoute(secondStepPage, "/auth/two-step", { cookie: pending, form: { code: codes[0] }, clientIp: "10.26.0.2" });
    expect(again.location).toBe("/auth");

    for (const attempt of [1, 2]) {
      const step = cookiesFrom(await signInWithPassword(admin.email, "10.26.0.3"));
      const result = await callRoute(secondStepPage, "/auth/two-step", { cookie: step, form: { code: codes[1].toUpperCase() }, clientIp: "10.26.0.3" });
      if (attempt === 1) expect(result.location).toBe("/admin");
      else expect(result.status).toBe(400);
    }
  });
});

describe("sign-ins that used only the password", () => {
  it("end when the admin sets up the authenticator: the other browser and the API token lose the back office, the one that enrolled keeps it", async () => {
    const admin = await createUser({ role: "admin" }, { secondFactor: false });
    // Three sign-ins with the password alone before any factor: this browser, another one, an /api client.
    const here = cookiesFrom(await signInWithPassword(admin.email, "10.27.0.1"));
    const elsewhere = cookiesFrom(await signInWithPassword(admin.email, "10.27.0.2"));
    const login = await callRoute(loginApi, "/api/auth/login", { json: { email: admin.email, password: TEST_PASSWORD }, clientIp: "10.27.0.3" });
    expect(login.status).toBe(200);
    const { accessToken, refreshToken } = login.body;

    await callRoute(twoStepPage, "/profile/two-step", { cookie: here, form: { intent: "start" } });
    const secret: string = (await callRoute(twoStepPage, "/profile/two-step", { cookie: here })).body.setup.secret;
    const enrolled = await callRoute(twoStepPage, "/profile/two-step", { cookie: here, form: { intent: "confirm", code: await totpCode(secret) } });
    expect(enrolled.body.codes).toHaveLength(10);

    expect((await callRoute(adminDashboard, "/admin", { cookie: here })).status).toBe(200);
    expect((await callRoute(adminDashboard, "/admin", { cookie: elsewhere })).location).toBe("/auth?redirectTo=%2Fadmin");
    const api = await callRoute(adminDashboardApi, "/api/admin/dashboard", { token: accessToken });
    expect(api.status).toBe(401);
    expect((await callRoute(refreshApi, "/api/auth/refresh", { json: { refreshToken }, clientIp: "10.27.0.3" })).status).toBe(401);

    const audit = await prisma.auditLog.findFirstOrThrow({ where: { actorId: admin.id, action: "security.session_end" } });
    expect(audit.summary).toBe(`Signed ${admin.email} out of the sign-ins that used only the password: 1 browser session and 1 API sign-in ended`);
    const alert = mail.to(admin.email).find((m) => m.text.includes("an authenticator app was added"));
    expect(alert?.text).toContain("2 other sign-ins that had used only your password were signed out.");
  });

  it("leave a sign-in that confirmed a factor alone, and nothing is audited when nothing ended", async () => {
    const member = await createUser({}, { secondFactor: false });
    const here = await sessionCookieFor(member.id, { stepUp: "never" });
    const confirmedElsewhere = await sessionCookieFor(member.id, { stepUp: "earlier" });
    await callRoute(twoStepPage, "/profile/two-step", { cookie: here, form: { intent: "start" } });
    const secret: string = (await callRoute(twoStepPage, "/profile/two-step", { cookie: here })).body.setup.secret;
    await callRoute(twoStepPage, "/profile/two-step", { cookie: here, form: { intent: "confirm", code: await totpCode(secret) } });
    expect((await callRoute(profilePage, "/profile", { cookie: confirmedElsewhere })).status).toBe(200);
    expect(await prisma.auditLog.count({ where: { actorId: member.id, action: "security.session_end" } })).toBe(0);
    expect(mail.to(member.email).find((m) => m.text.includes("an authenticator app was added"))?.text).not.toContain("signed out");
  });

  it("an admin's password-only sign-in that survived is sent to confirm the factor, then opens the back office", async () => {
    const admin = await createUser({ role: "admin" }, { secondFactor: false });
    const secret = await enrolTotp(admin.id);
    const cookie = await sessionCookieFor(admin.id, { stepUp: "never" });
    const page = await callRoute(adminDashboard, "/admin", { cookie });
    expect(page.location).toBe("/auth/step-up?redirectTo=%2Fadmin");

    const token = await accessTokenFor(admin.id, { stepUp: "never" });
    const refused = await callRoute(adminDashboardApi, "/api/admin/dashboard", { token });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: STEP_UP_REQUIRED, stepUpRequired: true });
    const confirmed = await callRoute(stepUpApi, "/api/auth/step-up", { json: { code: await totpCode(secret) }, token, clientIp: "10.27.0.4" });
    expect(confirmed.status).toBe(200);
    expect((await callRoute(adminDashboardApi, "/api/admin/dashboard", { token })).status).toBe(200);
  });
});
