import { describe, expect, it } from "vitest";
import { verifyPassword } from "~/lib/crypto.server.ts";
import { prisma } from "~/lib/db.server.ts";
import * as forgotApi from "~/routes/api/auth.forgot-password.ts";
import * as resetApi from "~/routes/api/auth.reset-password.ts";
import * as forgotPage from "~/routes/public/forgot-password.tsx";
import * as resetPage from "~/routes/public/reset-password.tsx";
import { issueTokens, rotateRefreshToken } from "~/services/auth/credentials.server.ts";
import { createUser, sessionCookieFor } from "../helpers/factories.ts";
import { callRoute } from "../helpers/route.ts";
import { useMailCapture } from "./account-helpers.ts";

const mail = useMailCapture();
const SAME_ANSWER = "If your email exists in our system, you'll receive a password reset link shortly.";

async function resetTokenFor(email: string, count = 1) {
  const res = await callRoute(forgotApi, "/api/auth/forgot-password", { json: { email } });
  expect(res.status).toBe(200);
  return mail.tokenFrom(email, "/reset-password", count);
}

describe("POST /api/auth/forgot-password", () => {
  it("answers the same for a known and an unknown address, and mails only the known one", async () => {
    const user = await createUser();
    const known = await callRoute(forgotApi, "/api/auth/forgot-password", { json: { email: user.email.toUpperCase() } });
    const unknown = await callRoute(forgotApi, "/api/auth/forgot-password", { json: { email: "nobody-here@example.com" } });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    expect(known.body.message).toBe(SAME_ANSWER);
    const token = await mail.tokenFrom(user.email, "/reset-password");
    expect(token).toBeTruthy();
    expect(mail.to("nobody-here@example.com")).toHaveLength(0);
    const row = await prisma.oneTimeToken.findFirstOrThrow({ where: { userId: user.id, purpose: "reset_password" } });
    // The link is valid for 1 hour.
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBeLessThanOrEqual(60 * 60 * 1000 + 1000);
  });

  it("400 for a malformed address", async () => {
    const res = await callRoute(forgotApi, "/api/auth/forgot-password", { json: { email: "nope" } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Invalid email address");
  });

  it("caps reset mails per address (3 an hour) without changing the answer", async () => {
    const user = await createUser();
    for (let i = 0; i < 5; i++) {
      const res = await callRoute(forgotApi, "/api/auth/forgot-password", { json: { email: user.email } });
      expect(res.status).toBe(200);
      expect(res.body.message).toBe(SAME_ANSWER);
    }
    await mail.tokenFrom(user.email, "/reset-password", 3);
    await new Promise((r) => setTimeout(r, 200));
    expect(mail.to(user.email)).toHaveLength(3);
  });

  it("sends nothing to a blocked account", async () => {
    const user = await createUser({ isActive: false });
    expect((await callRoute(forgotApi, "/api/auth/forgot-password", { json: { email: user.email } })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    expect(mail.to(user.email)).toHaveLength(0);
  });
});

describe("POST /api/auth/reset-password", () => {
  it("sets the new password, ends every session and refresh token, and the link works once", async () => {
    const user = await createUser();
    await sessionCookieFor(user.id);
    const { refreshToken } = await issueTokens(user.id);
    const token = await resetTokenFor(user.email);

    const res = await callRoute(resetApi, "/api/auth/reset-password", { json: { token, password: "brand-new-pw", confirmPassword: "brand-new-pw" } });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe("Password reset successful");

    const after = await prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(await verifyPassword(after.password, "brand-new-pw")).toBe(true);
    expect(await prisma.session.count({ where: { userId: user.id } })).toBe(0);
    expect(await prisma.refreshToken.count({ where: { userId: user.id, revokedAt: null } })).toBe(0);
    await expect(rotateRefreshToken(refreshToken)).rejects.toThrow();

    const again = await callRoute(resetApi, "/api/auth/reset-password", { json: { token, password: "another-pw", confirmPassword: "another-pw" } });
    expect(again.status).toBe(400);
    expect(again.body.message).toContain("Invalid or expired");
  });

  it("a successful reset also kills the user's other outstanding reset links", async () => {
    const user = await createUser();
    const first = await resetTokenFor(user.email, 1);
    const second = await resetTokenFor(user.email, 2);
    expect(
      (await callRoute(resetApi, "/api/auth/reset-password", { json: { token: second, password: "pw-number-2", confirmPassword: "pw-number-2" } })).status,
    ).toBe(200);
    const res = await callRoute(resetApi, "/api/auth/reset-password", { json: { token: first, password: "pw-number-1", confirmPassword: "pw-number-1" } });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("Invalid or expired");
  });

  it("refuses an expired link", async () => {
    const user = await createUser();
    const token = await resetTokenFor(user.email);
    await prisma.oneTimeToken.updateMany({ where: { userId: user.id }, data: { expiresAt: new Date(Date.now() - 1) } });
    const res = await callRoute(resetApi, "/api/auth/reset-password", { json: { token, password: "brand-new-pw", confirmPassword: "brand-new-pw" } });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("Invalid or expired");
  });

  it("refuses a link issued before an e-mail change", async () => {
    const user = await createUser();
    const token = await resetTokenFor(user.email);
    await prisma.user.update({ where: { id: user.id }, data: { email: `moved-${user.email}` } });
    const res = await callRoute(resetApi, "/api/auth/reset-password", { json: { token, password: "brand-new-pw", confirmPassword: "brand-new-pw" } });
    expect(res.status).toBe(400);
  });

  it.each([
    [{ token: "" }, "Reset token is required"],
    [{ password: "123", confirmPassword: "123" }, "Password must be at least 6 characters"],
    [{ confirmPassword: "different" }, "Passwords don't match"],
  ])("400 with the form's message for %o", async (change, message) => {
    const res = await callRoute(resetApi, "/api/auth/reset-password", {
      json: { token: "whatever", password: "secret12", confirmPassword: "secret12", ...change },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  it("an unknown token: 400 'Invalid or expired'", async () => {
    const res = await callRoute(resetApi, "/api/auth/reset-password", { json: { token: "x".repeat(43), password: "secret12", confirmPassword: "secret12" } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Invalid or expired reset token");
  });
});

describe("/forgot-password and /reset-password pages", () => {
  it("forgot: validation errors inline; success redirects to the notice with the toast", async () => {
    const bad = await callRoute(forgotPage, "/forgot-password", { form: { email: "nope" } });
    expect(bad.status).toBe(400);
    expect(bad.body.result.error.email).toEqual(["Invalid email address"]);
    const ok = await callRoute(forgotPage, "/forgot-password", { form: { email: "someone@example.com" } });
    expect(ok.status).toBe(302);
    expect(ok.location).toBe("/forgot-password?sent=1");
    expect((await callRoute(forgotPage, "/forgot-password?sent=1")).body).toEqual({ sent: true });
  });

  it("reset loader: missing, invalid and usable tokens; the check does not use the token up", async () => {
    expect((await callRoute(resetPage, "/reset-password")).body.view).toBe("missing");
    expect((await callRoute(resetPage, "/reset-password?token=nope")).body.view).toBe("invalid");
    const user = await createUser();
    const token = await resetTokenFor(user.email);
    expect((await callRoute(resetPage, `/reset-password?token=${token}`)).body.view).toBe("form");
    expect((await callRoute(resetPage, `/reset-password?token=${token}`)).body.view).toBe("form");
  });

  it("reset action: mismatch inline, then success redirects to the success screen, then the link is invalid", async () => {
    const user = await createUser();
    const token = await resetTokenFor(user.email);
    const mismatch = await callRoute(resetPage, `/reset-password?token=${token}`, { form: { token, password: "secret12", confirmPassword: "other12" } });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.result.error.confirmPassword).toEqual(["Passwords don't match"]);
    const ok = await callRoute(resetPage, `/reset-password?token=${token}`, { form: { token, password: "secret12", confirmPassword: "secret12" } });
    expect(ok.status).toBe(302);
    expect(ok.location).toBe("/reset-password?done=1");
    const reused = await callRoute(resetPage, `/reset-password?token=${token}`, { form: { token, password: "secret13", confirmPassword: "secret13" } });
    expect(reused.status).toBe(400);
    expect(reused.body.invalid).toBe(true);
  });
});
