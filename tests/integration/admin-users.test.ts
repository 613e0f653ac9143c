import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import * as usersScreen from "~/routes/admin/users.tsx";
import * as emailScreen from "~/routes/admin/user-email.tsx";
import * as usersApi from "~/routes/api/admin/users.ts";
import * as userApi from "~/routes/api/admin/users.id.ts";
import * as blockApi from "~/routes/api/admin/users.block.ts";
import * as login from "~/routes/api/auth.login.ts";
import * as me from "~/routes/api/auth.me.ts";
import { issueTokens, ACCOUNT_BLOCKED } from "~/services/auth/credentials.server.ts";
import { getUser } from "~/services/auth/guards.server.ts";
import { ADMIN_ONLY, CANNOT_BLOCK_SELF, CANNOT_DEMOTE_SELF, LAST_ADMIN } from "~/services/admin/user-admin.server.ts";
import { ROLE_REQUIRED } from "~/validation/admin-users.ts";
import { accessTokenFor, createUser, sessionCookieFor, TEST_PASSWORD } from "../helpers/factories.ts";
import { useMailCapture } from "../helpers/mail-capture.ts";
import { callRoute } from "../helpers/route.ts";

// /admin/users and its calls: the list, promote and demote, block and unblock (sessions end at
// once), the self and last-admin refusals, "Send Email", and an audit row for each change.

const mail = useMailCapture();

async function adminAndToken() {
  const admin = await createUser({ role: "admin" });
  return { admin, token: await accessTokenFor(admin.id), cookie: await sessionCookieFor(admin.id) };
}

async function auditFor(entityId: string) {
  return prisma.auditLog.findMany({ where: { entityId }, orderBy: { createdAt: "asc" } });
}

describe("GET /api/admin/users", () => {
  it("answers users and total, newest first, searched across name, username and e-mail, 20 a page", async () => {
    const { token } = await adminAndToken();
    const marker = `zq${Date.now()}`;
    for (let i = 0; i < 23; i++) await createUser({ email: `${marker}-${i}@example.test`, createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)) });
    const first = await callRoute(usersApi, `/api/admin/users?search=${marker}`, { token });
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(23);
    expect(first.body.users).toHaveLength(20);
    expect(first.body.users[0].email).toBe(`${marker}-22@example.test`);
    expect(first.body.users[0]).not.toHaveProperty("password");
    const second = await callRoute(usersApi, `/api/admin/users?search=${marker.toUpperCase()}&page=2`, { token });
    expect(second.body.users.map((u: { email: string }) => u.email)).toEqual([2, 1, 0].map((i) => `${marker}-${i}@example.test`));
    const none = await callRoute(usersApi, "/api/admin/users?search=nobody-has-this-name", { token });
    expect(none.body).toMatchObject({ users: [], total: 0 });
    const bounded = await callRoute(usersApi, `/api/admin/users?search=${marker}&limit=5000&page=-3`, { token });
    expect(bounded.status).toBe(200);
    expect(bounded.body.users).toHaveLength(20);
  });
});

describe("roles", () => {
  it("promotes and demotes, with an audit row for each; a bad role is a 400 with the message", async () => {
    const { token } = await adminAndToken();
    const member = await createUser();
    const bad = await callRoute(userApi, `/api/admin/users/${member.id}`, { method: "PUT", json: { role: "owner" }, params: { id: member.id }, token });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(ROLE_REQUIRED);
    const promoted = await callRoute(userApi, `/api/admin/users/${member.id}`, { method: "PUT", json: { role: "admin" }, params: { id: member.id }, token });
    expect(promoted.status).toBe(200);
    expect(promoted.body.user.role).toBe("admin");
    const demoted = await callRoute(userApi, `/api/admin/users/${member.id}`, { method: "PUT", json: { role: "user" }, params: { id: member.id }, token });
    expect(demoted.body.user.role).toBe("user");
    const audit = await auditFor(member.id);
    expect(audit.map((row) => [row.action, row.changes])).toEqual([
      ["user.promote", { role: ["user", "admin"] }],
      ["user.demote", { role: ["admin", "user"] }],
    ]);
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect((await callRoute(userApi, `/api/admin/users/${unknown}`, { method: "PUT", json: { role: "user" }, params: { id: unknown }, token })).status).toBe(
      404,
    );
  });

  it("refuses an admin demoting themselves, and two admins demoting each other at once leave one admin", async () => {
    await prisma.user.updateMany({ where: { role: "admin" }, data: { role: "user" } });
    const a = await adminAndToken();
    const b = await adminAndToken();
    const self = await callRoute(userApi, `/api/admin/users/${a.admin.id}`, {
      method: "PUT",
      json: { role: "user" },
      params: { id: a.admin.id },
      token: a.token,
    });
    expect(self.status).toBe(409);
    expect(self.body.message).toBe(CANNOT_DEMOTE_SELF);
    const [ab, ba] = await Promise.all([
      callRoute(userApi, `/api/admin/users/${b.admin.id}`, { method: "PUT", json: { role: "user" }, params: { id: b.admin.id }, token: a.token }),
      callRoute(userApi, `/api/admin/users/${a.admin.id}`, { method: "PUT", json: { role: "user" }, params: { id: a.admin.id }, token: b.token }),
    ]);
    // Whichever commits first wins; the other is refused (no longer an admin, or the last one).
    const refused = [ab, ba].filter((r) => r.status !== 200);
    expect(refused).toHaveLength(1);
    expect([403, 409]).toContain(refused[0]!.status);
    expect([LAST_ADMIN, ADMIN_ONLY]).toContain(refused[0]!.body.message);
    expect(await prisma.user.count({ where: { role: "admin" } })).toBe(1);
  });
});

describe("block and unblock", () => {
  it("ends every session and refresh token at once; sign-in says why; unblocking lets them back", async () => {
    const { token } = await adminAndToken();
    const member = await createUser();
    const cookie = await sessionCookieFor(member.id);
    const { refreshToken } = await issueTokens(member.id);
    const memberToken = await accessTokenFor(member.id);
    expect(await getUser(new Request("http://localhost/", { headers: { Cookie: cookie } }))).not.toBeNull();

    const blocked = await callRoute(blockApi, `/api/admin/users/${member.id}/block`, { method: "POST", params: { id: member.id }, token });
    expect(blocked.status).toBe(200);
    expect(blocked.body.user.isActive).toBe(false);
    expect(await prisma.session.count({ where: { userId: member.id } })).toBe(0);
    expect(await prisma.refreshToken.count({ where: { userId: member.id, revokedAt: null } })).toBe(0);
    expect(refreshToken).toBeTruthy();
    expect(await getUser(new Request("http://localhost/", { headers: { Cookie: cookie } }))).toBeNull();
    expect((await callRoute(me, "/api/auth/me", { token: memberToken })).status).toBe(401);
    const signIn = await callRoute(login, "/api/auth/login", { json: { email: member.email, password: TEST_PASSWORD }, clientIp: "198.51.100.7" });
    expect(signIn.status).toBe(403);
    expect(signIn.body.message).toBe(ACCOUNT_BLOCKED);

    const unblocked = await callRoute(blockApi, `/api/admin/users/${member.id}/unblock`, { method: "POST", params: { id: member.id }, token });
    expect(unblocked.body.user.isActive).toBe(true);
    expect((await callRoute(login, "/api/auth/login", { json: { email: member.email, password: TEST_PASSWORD }, clientIp: "198.51.100.7" })).status).toBe(200);
    expect((await auditFor(member.id)).map((row) => row.action)).toEqual(["user.block", "user.unblock"]);
  });

  it("refuses an admin blocking themselves", async () => {
    const { admin, token } = await adminAndToken();
    const self = await callRoute(blockApi, `/api/admin/users/${admin.id}/block`, { method: "POST", params: { id: admin.id }, token });
    expect(self.status).toBe(409);
    expect(self.body.message).toBe(CANNOT_BLOCK_SELF);
    expect((await prisma.user.findUnique({ where: { id: admin.id } }))?.isActive).toBe(true);
  });
});

describe("the /admin/users screen without JavaScript", () => {
  it("renders the confirm step from ?confirm=&intent=, and its POST blocks, with a failure toast when it cannot", async () => {
    const { admin, cookie } = await adminAndToken();
    const member = await createUser();
    const page = await callRoute(usersScreen, `/admin/users?confirm=${member.id}&intent=block`, { cookie });
    expect(page.body.confirm).toMatchObject({ intent: "block", user: { id: member.id } });
    expect(page.body.selfId).toBe(admin.id);
    const done = await callRoute(usersScreen, "/admin/users?confirm=x&intent=block&search=a", { form: { intent: "block", id: member.id }, cookie });
    expect(done.status).toBe(302);
    expect(done.location).toBe("/admin/users?search=a");
    expect((await prisma.user.findUnique({ where: { id: member.id } }))?.isActive).toBe(false);
    const self = await callRoute(usersScreen, "/admin/users", { form: { intent: "block", id: admin.id }, cookie });
    expect(self.status).toBe(302);
    expect(decodeURIComponent(self.headers.get("Set-Cookie") ?? "")).toBeTruthy();
    expect((await prisma.user.findUnique({ where: { id: admin.id } }))?.isActive).toBe(true);
  });
});

describe("Send Email", () => {
  it("really sends the message to that user, logs it, and refuses a blank subject", async () => {
    const { cookie } = await adminAndToken();
    const member = await createUser();
    const blank = await callRoute(emailScreen, `/admin/users/${member.id}/email`, {
      form: { subject: " ", message: "Hello" },
      params: { id: member.id },
      cookie,
    });
    expect(blank.status).toBe(400);
    expect(JSON.stringify(blank.body)).toContain("Subject is required");
    const sent = await callRoute(emailScreen, `/admin/users/${member.id}/email`, {
      form: { subject: "About your licence", message: "Hello <script>alert(1)</script>there,\nall good." },
      params: { id: member.id },
      cookie,
    });
    expect(sent.status).toBe(302);
    const received = mail.to(member.email);
    expect(received).toHaveLength(1);
    expect(received[0]!.subject).toBe("About your licence");
    expect(received[0]!.raw).not.toContain("<script>");
    const log = await prisma.emailLog.findFirst({ where: { userId: member.id } });
    expect(log).toMatchObject({ status: "sent", subject: "About your licence", toEmail: member.email });
    expect((await auditFor(member.id)).map((row) => row.action)).toEqual(["user.email"]);
  });
});
