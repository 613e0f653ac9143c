import os from "node:os";
import { prisma } from "~/lib/db.server.ts";
import { notFound } from "~/lib/errors.server.ts";
import { type AuditActor, recordAudit } from "~/services/admin/audit.server.ts";

// Recovering an account whose owner lost every second factor (docs/back-office.md and docs/security.md, "A lost factor"):
// run on the server by someone with shell access, never offered through the web or the /api,
// since whoever could call it would pass the second factor of any account.

export const NO_SUCH_ACCOUNT = "No account with this e-mail address";

/** The audit log's actor for a command run on the server: the OS user and the host. */
export function cliActor(): AuditActor {
  return { id: null, email: `cli:${os.userInfo().username}@${os.hostname()}` };
}

export type FactorReset = {
  userId: string;
  email: string;
  authenticator: boolean;
  passkeys: number;
  recoveryCodes: number;
  sessions: number;
  tokenFamilies: number;
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

export function describeFactorReset(reset: FactorReset) {
  return `${reset.authenticator ? "authenticator app" : "no authenticator app"}, ${plural(reset.passkeys, "passkey")} and ${plural(reset.recoveryCodes, "recovery code")} removed; ${plural(reset.sessions, "session")} and ${plural(reset.tokenFamilies, "API token family")} ended`;
}

/**
 * Removes the account's authenticator app, passkeys and recovery codes, ends its sessions, API
 * token families and sign-ins waiting for a second step, and records it, in one transaction. The
 * owner signs in with the password again; an admin is then walked through enrolling anew.
 */
export async function resetSecondFactors(emailInput: string, actor: AuditActor): Promise<FactorReset> {
  const email = emailInput.trim().toLowerCase();
  return prisma.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { email }, select: { id: true, email: true } });
    if (!user) throw notFound(NO_SUCH_ACCOUNT);
    const userId = user.id;
    const families = await tx.refreshToken.findMany({ where: { userId, revokedAt: null }, distinct: ["familyId"], select: { familyId: true } });
    const authenticator = await tx.totpFactor.deleteMany({ where: { userId } });
    const passkeys = await tx.passkey.deleteMany({ where: { userId } });
    const recoveryCodes = await tx.recoveryCode.deleteMany({ where: { userId } });
    const sessions = await tx.session.deleteMany({ where: { userId } });
    await tx.refreshToken.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: new Date() } });
    await tx.authChallenge.deleteMany({ where: { userId } });
    const reset = {
      userId,
      email: user.email,
      authenticator: authenticator.count > 0,
      passkeys: passkeys.count,
      recoveryCodes: recoveryCodes.count,
      sessions: sessions.count,
      tokenFamilies: families.length,
    };
    await recordAudit(tx, actor, {
      action: "security.factors_reset",
      entityType: "security",
      entityId: userId,
      summary: `Reset the second factors of ${user.email} from the server's command line: ${describeFactorReset(reset)}`,
    });
    return reset;
  });
}
