import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import * as login from "~/routes/api/auth.login.ts";
import * as me from "~/routes/api/auth.me.ts";
import * as refresh from "~/routes/api/auth.refresh.ts";
import * as register from "~/routes/api/auth.register.ts";
import * as logout from "~/routes/api/auth.logout.ts";
import * as resetPassword from "~/routes/api/auth.reset-password.ts";
import { accessTokenFor, createUser, TEST_PASSWORD } from "../helpers/factories.ts";
import { callRoute } from "../helpers/route.ts";
import { useMailCapture } from "../helpers/mail-capture.ts";

const smtp = useMailCapture();

const signUp = {
  firstName: "Ada",
  lastName: "Lovelace",
  username: "ada",
  email: "ada@example.com",
  password: "secret12",
  confirmPassword: "secret12",
  agreeToTerms: true,
};

describe("POST /api/auth/register", () => {
  it("creates the account, returns tokens and a user without the password, and mails a verification link", async () => {
    const res = await callRoute(register, "/api/auth/register", { json: signUp });
    expect(res.status).toBe(201);
    expect(res.body.accessToken).toEqual(expect.any(String));
    expect(res.body.refreshToken).toEqual(expect.any(String));
    expect(res.body.user).toMatchObject({ email: "ada@example.com", username: "ada", role: "user", accountType: "free", isEmailVerified: false });
    expect(res.body.user).not.toHaveProperty("password");
    const mail = smtp.received.find((m) => m.to.includes("ada@example.com"));
    expect(mail?.subject).toContain("Verify your email");
    expect(mail?.text).toMatch(/\/verify-email\?token=/);
    const log = await prisma.emailLog.findFirst({ where: { toEmail: "ada@example.com" } });
    expect(log?.status).toBe("sent");
  });

  it("answers 409 for an address already registered", async () => {
    const res = await callRoute(register, "/api/auth/register", { json: { ...signUp, username: "ada2" } });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe("An account with this email already exists");
  });

  it.each([
    [{ email: "nope" }, "Invalid email address"],
    [{ password: "123", confirmPassword: "123" }, "Password must be at least 6 characters"],
    [{ confirmPassword: "different" }, "Passwords don't match"],
    [{ agreeToTerms: false }, "You must agree to the Terms of Service and Privacy Policy"],
  ])("answers 400 with the product's message for %o", async (change, message) => {
    const res = await callRoute(register, "/api/auth/register", { json: { ...signUp, username: "someone", email: "x@example.com", ...change } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  it("answers 400, not 500, to a body that is not JSON", async () => {
    const res = await callRoute(register, "/api/auth/register", {
      method: "POST",
      body: "{not json",
      headers: { "Content-Type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Request body must be valid JSON");
  });
});

describe("a JSON body of null (fuzzer: a refine read null.password, 500)", () => {
  it("answers 400 with the form's own messages on register and reset-password", async () => {
    const reg = await callRoute(register, "/api/auth/register", { json: null });
    expect(reg.status).toBe(400);
    expect(reg.body.errors.email).toBeDefined();
    expect(reg.body.message).toBe(reg.body.errors[Object.keys(reg.body.errors)[0]!][0]);
    const reset = await callRoute(resetPassword, "/api/auth/reset-password", { json: null });
    expect(reset.status).toBe(400);
    expect(reset.body.errors.token).toBeDefined();
  });
});

describe("POST /api/auth/login and GET /api/auth/me", () => {
  it("returns both tokens and the user; me answers with the same user", async () => {
    const user = await createUser();
    const res = await callRoute(login, "/api/auth/login", { json: { email: user.email, password: TEST_PASSWORD } });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(user.id);
    expect(res.body.user).not.toHaveProperty("password");
    const who = await callRoute(me, "/api/auth/me", { token: res.body.accessToken });
    expect(who.status).toBe(200);
    expect(who.body.user.email).toBe(user.email);
  });

  it("answers 401 with a message for a wrong password or an unknown address alike", async () => {
    const user = await createUser();
    const wrong = await callRoute(login, "/api/auth/login", { json: { email: user.email, password: "wrong-password" } });
    const unknown = await callRoute(login, "/api/auth/login", { json: { email: "nobody@example.com", password: "whatever1" } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.message).toBe(unknown.body.message);
  });

  it("refuses a blocked user", async () => {
    const user = await createUser({ isActive: false });
    const res = await callRoute(login, "/api/auth/login", { json: { email: user.email, password: TEST_PASSWORD } });
    expect(res.status).toBe(403);
  });

  it("me answers 401 without a token, with garbage, and with a token signed with another key", async () => {
    expect((await callRoute(me, "/api/auth/me")).status).toBe(401);
    expect((await callRoute(me, "/api/auth/me", { token: "garbage" })).status).toBe(401);
    const forged =
      "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4IiwiYXVkIjoibWVkYW5pbS1hcGkiLCJpc3MiOiJtZWRhbmltIiwiZXhwIjo0MTAyNDQ0ODAwfQ.3l1Hc8yV3l0g1b8cP0H5xg2Gq2A8o2i0cJ6s5Q5Yk0s";
    expect((await callRoute(me, "/api/auth/me", { token: forged })).status).toBe(401);
  });

  it("refuses an unsigned token (alg none)", async () => {
    const user = await createUser();
    const header = Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url");
    const payload = Buffer.from(JSON.stringify({ sub: user.id, aud: "medanim-api", iss: "medanim", exp: 4102444800 })).toString("base64url");
    expect((await callRoute(me, "/api/auth/me", { token: `${header}.${payload}.` })).status).toBe(401);
  });
});

describe("POST /api/auth/refresh", () => {
  it("rotates: the new pair works, the old refresh token stops working, and its reuse revokes the family", async () => {
    const user = await createUser();
    const first = await callRoute(login, "/api/auth/login", { json: { email: user.email, password: TEST_PASSWORD } });
    const second = await callRoute(refresh, "/api/auth/refresh", { json: { refreshToken: first.body.refreshToken } });
    expect(second.status).toBe(200);
    expect(second.body.refreshToken).not.toBe(first.body.refreshToken);
    expect((await callRoute(me, "/api/auth/me", { token: second.body.accessToken })).status).toBe(200);

    const reuse = await callRoute(refresh, "/api/auth/refresh", { json: { refreshToken: first.body.refreshToken } });
    expect(reuse.status).toBe(401);
    // The thief's reuse also kills the legitimate descendant.
    const after = await callRoute(refresh, "/api/auth/refresh", { json: { refreshToken: second.body.refreshToken } });
    expect(after.status).toBe(401);
  });

  it("answers 400 without a token and 401 for an unknown one", async () => {
    expect((await callRoute(refresh, "/api/auth/refresh", { json: {} })).status).toBe(400);
    expect((await callRoute(refresh, "/api/auth/refresh", { json: { refreshToken: "nope" } })).status).toBe(401);
  });

  it("logout by another signed-in caller leaves someone else's refresh token working", async () => {
    const owner = await createUser();
    const other = await createUser();
    const tokens = await callRoute(login, "/api/auth/login", { json: { email: owner.email, password: TEST_PASSWORD } });
    const out = await callRoute(logout, "/api/auth/logout", { json: { refreshToken: tokens.body.refreshToken }, token: await accessTokenFor(other.id) });
    expect(out.status).toBe(200);
    expect((await callRoute(refresh, "/api/auth/refresh", { json: { refreshToken: tokens.body.refreshToken } })).status).toBe(200);
  });

  it("logout revokes the refresh token", async () => {
    const user = await createUser();
    const tokens = await callRoute(login, "/api/auth/login", { json: { email: user.email, password: TEST_PASSWORD } });
    expect((await callRoute(logout, "/api/auth/logout", { json: { refreshToken: tokens.body.refreshToken } })).status).toBe(200);
    expect((await callRoute(refresh, "/api/auth/refresh", { json: { refreshToken: tokens.body.refreshToken } })).status).toBe(401);
  });
});
