import { createOpaqueToken, hashToken } from "~/lib/crypto.server.ts";
import { prisma } from "~/lib/db.server.ts";
import type { AuthChallengePurpose } from "~/generated/prisma/client.ts";

// Short-lived, single-use steps of a sign-in: the second step after a right password (a cookie
// for the /auth form, the mfaToken of POST /api/auth/login) and WebAuthn ceremonies. Only the
// token's hash is stored; the hourly purge removes expired rows.

export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** Wrong codes one sign-in step takes before it must start again from the password. */
export const MAX_CHALLENGE_ATTEMPTS = 5;

export async function createChallenge(
  purpose: AuthChallengePurpose,
  data: { userId?: string | null; challenge?: string; redirectTo?: string | null } = {},
  ttlMs = CHALLENGE_TTL_MS,
) {
  const { token, tokenHash } = createOpaqueToken();
  await prisma.authChallenge.create({
    data: {
      tokenHash,
      purpose,
      userId: data.userId ?? null,
      challenge: data.challenge ?? null,
      redirectTo: data.redirectTo ?? null,
      expiresAt: new Date(Date.now() + ttlMs),
    },
  });
  return token;
}

/** The challenge for this token and purpose while it is open (unused, unexpired), else null. */
export async function openChallenge(token: string | null | undefined, purpose: AuthChallengePurpose, now = new Date()) {
  if (!token) return null;
  const row = await prisma.authChallenge.findUnique({ where: { tokenHash: hashToken(token) } });
  if (!row || row.purpose !== purpose || row.usedAt || row.expiresAt <= now || row.attempts >= MAX_CHALLENGE_ATTEMPTS) return null;
  return row;
}

/** Marks it used; false when another request used it first. */
export async function consumeChallenge(id: string) {
  const { count } = await prisma.authChallenge.updateMany({ where: { id, usedAt: null }, data: { usedAt: new Date() } });
  return count === 1;
}

export async function countFailedAttempt(id: string) {
  await prisma.authChallenge.update({ where: { id }, data: { attempts: { increment: 1 } } });
}

export async function purgeExpiredChallenges(now = new Date()) {
  return (await prisma.authChallenge.deleteMany({ where: { expiresAt: { lt: now } } })).count;
}
