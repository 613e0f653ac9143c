import { describe, expect, it } from "vitest";
import { hashToken } from "~/lib/crypto.server.ts";
import { prisma } from "~/lib/db.server.ts";
import * as resendApi from "~/routes/api/auth.resend-verification.ts";
import * as verifyApi from "~/routes/api/auth.verify-email.ts";
import * as verifyPage from "~/routes/public/verify-email.tsx";
import { purgeExpiredCredentials } from "~/services/auth/credentials.server.ts";
import { sendVerificationEmail } from "~/services/auth/verification.server.ts";
import { accessTokenFor, createUser, sessionCookieFor } from "../helpers/factories.ts";
import { callRoute } from "../helpers/route.ts";
import { sendToApp } from "../helpers/app.ts";
import { DAY_MS, useMailCapture } from "./account-helpers.ts";

const mail = useMailCapture();

async function unverifiedUserWithToken() {
  const user = await createUser({ isEmailVerified: false });
  await sendVerificationEmail(user);
  const token = await mail.tokenFrom(user.email, "/verify-email");
  return { user, token };
}

describe("POST /api/auth/verify-email", () => {
  it("verifies the address once; the same link opened again says it is verified, without a second welcome", async () => {
    const { user, token } = await unverifiedUserWithToken();
    const ok = await callRoute(verifyApi, "/api/auth/verify-email", { json: { token } });
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe("Your email has been successfully verified!");
    expect(ok.body.user).toMatchObject({ id: user.id, isEmailVerified: true });
    expect(ok.body.user).not.toHaveProperty("password");
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).isEmailVerified).toBe(true);

    const welcomes = () => prisma.emailLog.count({ where: { userId: user.id, template: { name: "welcome" } } });
    const welcomesBefore = await welcomes();
    const again = await callRoute(verifyApi, "/api/auth/verify-email", { json: { token } });
    expect(again.status).toBe(200);
    expect(again.body.message).toBe("Your email address is already verified. You can sign in and carry on.");
    expect(again.body.user).toMatchObject({ id: user.id, isEmailVerified: true });
    expect(await welcomes()).toBe(welcomesBefore);
  });

  it("the purge keeps a used link until it expires: opened again after a purge, it still says verified", async () => {
    const { token } = await unverifiedUserWithToken();
    expect((await callRoute(verifyApi, "/api/auth/verify-email", { json: { token } })).status).toBe(200);
    await purgeExpiredCredentials();
    const again = await callRoute(verifyApi, "/api/auth/verify-email", { json: { token } });
    expect(again.status).toBe(200);
    expect(again.body.message).toBe("Your email address is already verified. You can sign in and carry on.");
    // Once the link's 24 hours are over, the purge removes it and it is simply expired.
    await purgeExpiredCredentials(new Date(Date.now() + DAY_MS + 60_000));
    expect(await prisma.oneTimeToken.count({ where: { tokenHash: hashToken(token) } })).toBe(0);
    expect((await callRoute(verifyApi, "/api/auth/verify-email", { json: { token } })).status).toBe(400);
  });

  it("a used link stays invalid once the account's address has changed or is unverified again", async () => {
    const { user, token } = await unverifiedUserWithToken();
    expect((await callRoute(verifyApi, "/api/auth/verify-email", { json: { token } })).status).toBe(200);
    await prisma.user.update({ where: { id: user.id }, data: { email: `moved-${user.email}`, isEmailVerified: false } });
    const again = await callRoute(verifyApi, "/api/auth/verify-email", { json: { token } });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe("Invalid or expired verification link");
  });

  it("stores only the hash of the token", async () => {
    const { user, token } = await unverifiedUserWithToken();
    const rows = await prisma.oneTimeToken.findMany({ where: { userId: user.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(hashToken(token));
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it("refuses an expired link (24 hours)", async () => {
    const { user, token } = await unverifiedUserWithToken();
    await prisma.oneTimeToken.updateMany({ where: { userId: user.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const res = await callRoute(verifyApi, "/api/auth/verify-email", { json: { token } });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("Invalid or expired");
    const row = await prisma.oneTimeToken.findFirstOrThrow({ where: { userId: user.id } });
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBeLessThanOrEqual(DAY_MS + 1000);
  });

  it("answers 400 with the product's message without a token, and for an unknown one", async () => {
    const missing = await callRoute(verifyApi, "/api/auth/verify-email", { json: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe("Invalid verification link - no token provided");
    const unknown = await callRoute(verifyApi, "/api/auth/verify-email", { json: { token: "not-a-real-token" } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe("Invalid or expired verification link");
  });

  it("a reset-password token cannot verify an address", async () => {
    const user = await createUser({ isEmailVerified: false });
    const token = "reset-token-used-as-verify-token";
    await prisma.oneTimeToken.create({
      data: { userId: user.id, purpose: "reset_password", tokenHash: hashToken(token), email: user.email, expiresAt: new Date(Date.now() + 60_000) },
    });
    expect((await callRoute(verifyApi, "/api/auth/verify-email", { json: { token } })).status).toBe(400);
  });

  it("sends the welcome mail after the first verification only", async () => {
    const { user, token } = await unverifiedUserWithToken();
    await callRoute(verifyApi, "/api/auth/verify-email", { json: { token } });
    await prisma.user.update({ where: { id: user.id }, data: { isEmailVerified: false } });
    await sendVerificationEmail(user);
    const second = await mail.tokenFrom(user.email, "/verify-email", 2);
    expect((await callRoute(verifyApi, "/api/auth/verify-email", { json: { token: second } })).status).toBe(200);
    expect(mail.to(user.email).filter((m) => m.subject.startsWith("Welcome"))).toHaveLength(1);
  });

  it("405 for GET", async () => {
    expect((await callRoute(verifyApi, "/api/auth/verify-email")).status).toBe(405);
  });
});

describe("POST /api/auth/resend-verification", () => {
  it("401 for an anonymous caller", async () => {
    const res = await callRoute(resendApi, "/api/auth/resend-verification", { method: "POST" });
    expect(res.status).toBe(401);
    expect(res.body.message).toEqual(expect.any(String));
  });

  it("sends a new link; only the newest link works", async () => {
    const { user, token: first } = await unverifiedUserWithToken();
    const res = await callRoute(resendApi, "/api/auth/resend-verification", { method: "POST", token: await accessTokenFor(user.id) });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe("Verification Email Sent");
    const second = await mail.tokenFrom(user.email, "/verify-email", 2);
    expect(second).not.toBe(first);
    expect((await callRoute(verifyApi, "/api/auth/verify-email", { json: { token: first } })).status).toBe(400);
    expect((await callRoute(verifyApi, "/api/auth/verify-email", { json: { token: second } })).status).toBe(200);
  });

  it("400 for an address that is already verified", async () => {
    const user = await createUser();
    const res = await callRoute(resendApi, "/api/auth/resend-verification", { method: "POST", token: await accessTokenFor(user.id) });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Your email is already verified");
  });

  it("caps the mails per user and hour (429)", async () => {
    const user = await createUser({ isEmailVerified: false });
    const token = await accessTokenFor(user.id);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await callRoute(resendApi, "/api/auth/resend-verification", { method: "POST", token })).status);
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses[5]).toBe(429);
  });
});

describe("/verify-email page", () => {
  it("verifies in the loader and shows the success message", async () => {
    const { user, token } = await unverifiedUserWithToken();
    const res = await callRoute(verifyPage, `/verify-email?token=${encodeURIComponent(token)}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, message: "Your email has been successfully verified!" });
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).isEmailVerified).toBe(true);
    const again = await callRoute(verifyPage, `/verify-email?token=${encodeURIComponent(token)}`);
    expect(again.body).toEqual({ ok: true, message: "Your email address is already verified. You can sign in and carry on." });
  });

  it("continues at the same-site path the sign-up started from, and only at one", async () => {
    const user = await createUser({ isEmailVerified: false });
    await sendVerificationEmail(user, "/purchase/category/rhinoplasty?for=practice");
    const link = new URL(
      mail
        .to(user.email)
        .at(-1)!
        .text.match(/https?:\/\/[^\s()]*\/verify-email\?[^\s()]+/)![0],
    );
    expect(link.searchParams.get("next")).toBe("/purchase/category/rhinoplasty?for=practice");
    const on = await sendToApp(`${link.pathname}${link.search}`, {});
    expect(on.status).toBe(302);
    expect(on.headers.get("Location")).toBe("/purchase/category/rhinoplasty?for=practice");
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).isEmailVerified).toBe(true);
    // Another site is never a target: the page answers as it always did.
    const { token } = await unverifiedUserWithToken();
    for (const next of ["//evil.example/x", "https://evil.example/", "/\\evil.example"]) {
      const res = await sendToApp(`/verify-email?token=${encodeURIComponent(token)}&next=${encodeURIComponent(next)}`, {});
      expect(res.status, next).toBe(200);
    }
  });

  it("explains a missing token", async () => {
    const res = await callRoute(verifyPage, "/verify-email");
    expect(res.body).toEqual({ ok: false, message: "Invalid verification link - no token provided" });
  });

  it("resend: anonymous visitors are sent to sign in; a signed-in user gets a toast and a new mail", async () => {
    const anonymous = await callRoute(verifyPage, "/verify-email", { method: "POST", form: {} });
    expect(anonymous.status).toBe(302);
    expect(anonymous.location).toBe("/auth?redirectTo=%2Fprofile");

    const user = await createUser({ isEmailVerified: false });
    const res = await callRoute(verifyPage, "/verify-email", { method: "POST", form: {}, cookie: await sessionCookieFor(user.id) });
    expect(res.status).toBe(302);
    expect(res.location).toBe("/profile");
    await mail.tokenFrom(user.email, "/verify-email");
  });
});
