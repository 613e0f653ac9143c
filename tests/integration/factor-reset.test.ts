import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { openDatabase, prisma } from "~/lib/db.server.ts";
import { sealSecret } from "~/lib/secret-box.server.ts";
import * as meApi from "~/routes/api/auth.me.ts";
import * as refreshApi from "~/routes/api/auth.refresh.ts";
import * as loginApi from "~/routes/api/auth.login.ts";
import { issueTokens } from "~/services/auth/credentials.server.ts";
import { cliActor, NO_SUCH_ACCOUNT, resetSecondFactors } from "~/services/auth/factor-reset.server.ts";
import { regenerateRecoveryCodes } from "~/services/auth/second-factor.server.ts";
import { beginSecondStep } from "~/services/auth/sign-in.server.ts";
import { createUser, sessionCookieFor, TEST_PASSWORD } from "../helpers/factories.ts";
import { callRoute } from "../helpers/route.ts";

// The documented recovery of a lost second factor (docs/security.md): `npm run mfa:reset -- <e-mail>` on
// the server removes the account's factors, ends its sessions and tokens, and is audited.

const run = promisify(execFile);

async function userWithEverything() {
  const user = await createUser({ role: "admin" });
  await regenerateRecoveryCodes(user.id);
  await prisma.passkey.create({ data: { id: `cred-${user.id}`, userId: user.id, publicKey: "AQI", deviceType: "multiDevice", name: "Laptop" } });
  const cookie = await sessionCookieFor(user.id);
  const tokens = await issueTokens(user.id);
  await beginSecondStep(user.id);
  return { user, cookie, tokens };
}

describe("resetSecondFactors", () => {
  it("removes the factors, ends sessions, tokens and waiting sign-ins, and is audited under the cli actor", async () => {
    const { user, cookie, tokens } = await userWithEverything();
    const other = await createUser({ role: "admin" });
    const actor = cliActor();
    expect(actor).toEqual({ id: null, email: `cli:${os.userInfo().username}@${os.hostname()}` });

    const reset = await resetSecondFactors(`  ${user.email.toUpperCase()} `, actor);
    expect(reset).toEqual({ userId: user.id, email: user.email, authenticator: true, passkeys: 1, recoveryCodes: 10, sessions: 1, tokenFamilies: 1 });
    const where = { userId: user.id };
    const left = await Promise.all([
      prisma.totpFactor.count({ where }),
      prisma.passkey.count({ where }),
      prisma.recoveryCode.count({ where }),
      prisma.session.count({ where }),
      prisma.authChallenge.count({ where }),
    ]);
    expect(left).toEqual([0, 0, 0, 0, 0]);
    expect(await prisma.refreshToken.count({ where: { ...where, revokedAt: null } })).toBe(0);
    expect(await prisma.totpFactor.count({ where: { userId: other.id } })).toBe(1);

    expect((await callRoute(meApi, "/api/auth/me", { cookie })).status).toBe(401);
    expect((await callRoute(meApi, "/api/auth/me", { token: tokens.accessToken })).status).toBe(401);
    expect((await callRoute(refreshApi, "/api/auth/refresh", { json: { refreshToken: tokens.refreshToken } })).status).toBe(401);
    // The password alone signs in again; the admin is then asked to set up a factor.
    const login = await callRoute(loginApi, "/api/auth/login", { json: { email: user.email, password: TEST_PASSWORD } });
    expect(login.body).toHaveProperty("accessToken");

    const [entry] = await prisma.auditLog.findMany({ where: { action: "security.factors_reset", entityId: user.id } });
    expect(entry).toMatchObject({ actorId: null, actorEmail: actor.email, entityType: "security" });
    expect(entry!.summary).toContain("authenticator app, 1 passkey and 10 recovery codes removed; 1 session and 1 API token family ended");
  });

  it("refuses an unknown address with 404 and changes nothing", async () => {
    const before = await prisma.auditLog.count();
    await expect(resetSecondFactors("nobody@example.com", cliActor())).rejects.toMatchObject({ status: 404, message: NO_SUCH_ACCOUNT });
    expect(await prisma.auditLog.count()).toBe(before);
  });
});

describe("npm run mfa:reset", () => {
  it("runs on the app's own database (DATA_DIR) and says what it did; without an address it prints the usage", { timeout: 120_000 }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-mfa-reset-"));
    // The embedded database under DATA_DIR, even on CI's PostgreSQL pass.
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
    delete env.DATABASE_URL;
    const script = path.resolve("scripts/reset-second-factors.ts");
    const tsx = path.resolve("node_modules/.bin/tsx");
    try {
      let db = openDatabase({ dataDir: path.join(dataDir, "pglite") });
      await db.migrate();
      const user = await db.prisma.user.create({
        data: { email: "lost@example.com", username: "lost", firstName: "Lost", lastName: "Phone", password: "x", role: "admin" },
      });
      await db.prisma.totpFactor.create({ data: { userId: user.id, secret: sealSecret("JBSWY3DPEHPK3PXP"), confirmedAt: new Date() } });
      await db.close();

      const usage = await run(tsx, [script], { env }).catch((error: { code: number; stderr: string }) => error);
      expect(usage).toMatchObject({ code: 2, stderr: expect.stringContaining("Usage: npm run mfa:reset -- <e-mail address of the account>") });
      const done = await run(tsx, [script, "lost@example.com"], { env });
      expect(done.stdout).toContain("Second factors reset for lost@example.com: authenticator app, 0 passkeys and 0 recovery codes removed");
      expect(done.stdout).toContain("security.factors_reset by cli:");

      db = openDatabase({ dataDir: path.join(dataDir, "pglite") });
      expect(await db.prisma.totpFactor.count({ where: { userId: user.id } })).toBe(0);
      expect(await db.prisma.auditLog.findFirst({ where: { action: "security.factors_reset", entityId: user.id } })).toMatchObject({
        actorId: null,
        actorEmail: expect.stringMatching(/^cli:/),
      });
      await db.close();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
