import crypto from "node:crypto";
import * as jose from "jose";
import { burnPasswordCheck, createOpaqueToken, hashPassword, hashToken, verifyPassword } from "~/lib/crypto.server.ts";
import { prisma } from "~/lib/db.server.ts";
import { ServiceError } from "~/lib/errors.server.ts";
import { getEnv } from "~/lib/env.server.ts";
import { Prisma } from "~/generated/prisma/client.ts";
import type { SignUpInput } from "~/validation/auth-forms.ts";
import type { SignInClient } from "./device.server.ts";

// Credentials: accounts created and checked, /api access and refresh tokens, every way of being
// signed in ended or purged. The HTTP guards are in guards.server.ts, the sign-in limits in
// sign-in.server.ts.

/** The user as the app and the /api contract show it: never the password hash. */
export const publicUserSelect = {
  id: true,
  email: true,
  username: true,
  firstName: true,
  lastName: true,
  role: true,
  accountType: true,
  isActive: true,
  isEmailVerified: true,
  createdAt: true,
} satisfies Prisma.UserSelect;

export type PublicUser = Prisma.UserGetPayload<{ select: typeof publicUserSelect }>;

export const INVALID_CREDENTIALS = "Invalid email or password. Please try again.";
export const ACCOUNT_BLOCKED = "Your account has been blocked. Please contact support.";

export async function registerUser(input: SignUpInput): Promise<PublicUser> {
  const email = input.email.trim().toLowerCase();
  const username = input.username.trim();
  const clash = await prisma.user.findFirst({
    where: { OR: [{ email }, { username: { equals: username, mode: "insensitive" } }] },
    select: { email: true },
  });
  if (clash) {
    throw clash.email === email
      ? new ServiceError("An account with this email already exists", 409, "email")
      : new ServiceError("This username is already taken", 409, "username");
  }
  const password = await hashPassword(input.password);
  try {
    return await prisma.user.create({
      data: {
        email,
        username,
        password,
        firstName: input.firstName.trim(),
        lastName: input.lastName.trim(),
        termsAcceptedAt: new Date(),
        notificationPreferences: { create: {} },
      },
      select: publicUserSelect,
    });
  } catch (error) {
    // Two sign-ups racing for the same address or username.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw new ServiceError("An account with this email or username already exists", 409, "email");
    }
    throw error;
  }
}

/** The user for these credentials; the same message whichever part was wrong. */
export async function verifyLogin(emailInput: string, password: string): Promise<PublicUser> {
  const email = emailInput.trim().toLowerCase();
  const user = await prisma.user.findUnique({ where: { email }, select: { ...publicUserSelect, password: true } });
  if (!user) {
    await burnPasswordCheck(password);
    throw new ServiceError(INVALID_CREDENTIALS, 401);
  }
  if (!(await verifyPassword(user.password, password))) throw new ServiceError(INVALID_CREDENTIALS, 401);
  if (!user.isActive) throw new ServiceError(ACCOUNT_BLOCKED, 403);
  const { password: _, ...publicUser } = user;
  return publicUser;
}

// ---------------------------------------------------------------------------------------------
// Access and refresh tokens for /api clients.

const ACCESS_TTL_SECONDS = 15 * 60;
const REFRESH_TTL_MS = 30 * 24 * 60 * 60 * 1000;
const AUDIENCE = "medanim-api";
const ISSUER = "medanim";

function jwtKey() {
  return new TextEncoder().encode(getEnv().JWT_SECRET);
}

export type TokenFamily = {
  familyId?: string;
  /** The family's first sign-in (kept across rotations). */
  familyCreatedAt?: Date;
  client?: SignInClient;
  /** When a second factor was last confirmed for the family: at a sign-in that asked for one. */
  stepUpAt?: Date | null;
};

/**
 * A new access token and refresh token. The access token names its family (`fam`), so a
 * revoked family's access tokens stop working at once, not only when they expire.
 */
export async function issueTokens(userId: string, family: TokenFamily = {}) {
  const familyId = family.familyId ?? crypto.randomUUID();
  const accessToken = await new jose.SignJWT({ fam: familyId })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${ACCESS_TTL_SECONDS}s`)
    .setJti(crypto.randomUUID())
    .sign(jwtKey());
  const { token: refreshToken, tokenHash } = createOpaqueToken();
  await prisma.refreshToken.create({
    data: {
      userId,
      tokenHash,
      familyId,
      expiresAt: new Date(Date.now() + REFRESH_TTL_MS),
      familyCreatedAt: family.familyCreatedAt ?? new Date(),
      userAgent: family.client?.userAgent ?? null,
      ipAddress: family.client?.ipAddress ?? null,
      place: family.client?.place ?? null,
      stepUpAt: family.stepUpAt ?? null,
    },
  });
  return { accessToken, refreshToken };
}

/**
 * Access tokens whose signature has been checked, with their claims: an /api client sends the
 * same token with every call for its lifetime, and checking it again through jose (WebCrypto,
 * the key imported each time) was 5 % of a signed-in page's CPU (bench/README.md). Kept by the
 * whole token under the secret that checked it; its expiry is still judged on every use, and a
 * revoked family is still refused by the caller's lookup (guards.server.ts), as before.
 */
const verifiedTokens = new Map<string, { userId: string; familyId: string; expiresAtMs: number }>();
let verifiedUnder = "";
const MAX_VERIFIED_TOKENS = 5_000;

export async function verifyAccessToken(token: string): Promise<{ userId: string; familyId: string } | null> {
  const secret = getEnv().JWT_SECRET;
  if (secret !== verifiedUnder) {
    verifiedTokens.clear();
    verifiedUnder = secret;
  }
  const known = verifiedTokens.get(token);
  if (known) return Date.now() < known.expiresAtMs ? { userId: known.userId, familyId: known.familyId } : null;
  try {
    const { payload } = await jose.jwtVerify(token, jwtKey(), {
      algorithms: ["HS256"],
      audience: AUDIENCE,
      issuer: ISSUER,
    });
    if (typeof payload.sub !== "string" || typeof payload.fam !== "string" || typeof payload.exp !== "number") return null;
    // Bounded: tokens come from anyone (only signed ones are kept, but a busy hour has many).
    if (verifiedTokens.size >= MAX_VERIFIED_TOKENS) verifiedTokens.clear();
    verifiedTokens.set(token, { userId: payload.sub, familyId: payload.fam, expiresAtMs: payload.exp * 1000 });
    return { userId: payload.sub, familyId: payload.fam };
  } catch {
    return null;
  }
}

export const INVALID_REFRESH = "Invalid or expired refresh token";

/**
 * Rotation: each refresh token works once. Presenting one that was already rotated means it
 * leaked, so the whole family (every token descended from the same sign-in) is revoked.
 */
export async function rotateRefreshToken(token: string, client?: SignInClient) {
  const tokenHash = hashToken(token);
  const outcome = await prisma.$transaction(async (tx) => {
    const row = await tx.refreshToken.findUnique({ where: { tokenHash }, include: { user: true } });
    if (!row) return { ok: false as const };
    if (row.rotatedAt || row.revokedAt) return { ok: false as const, reusedFamily: row.familyId };
    if (row.expiresAt < new Date() || !row.user.isActive) return { ok: false as const };
    // Conditional update: of two concurrent refreshes with the same token only one wins.
    const claimed = await tx.refreshToken.updateMany({
      where: { id: row.id, rotatedAt: null, revokedAt: null },
      data: { rotatedAt: new Date() },
    });
    return claimed.count === 1 ? { ok: true as const, row } : { ok: false as const, reusedFamily: row.familyId };
  });
  if (outcome.ok) {
    const { row } = outcome;
    return issueTokens(row.userId, {
      familyId: row.familyId,
      familyCreatedAt: row.familyCreatedAt,
      // The newest address and device: the list shows where the family was last used.
      client: client ?? { userAgent: row.userAgent, ipAddress: row.ipAddress, place: row.place },
      stepUpAt: row.stepUpAt,
    });
  }
  // Revoked outside the transaction above, which only reads: the revocation must persist.
  if (outcome.reusedFamily) {
    await prisma.refreshToken.updateMany({
      where: { familyId: outcome.reusedFamily, revokedAt: null },
      data: { revokedAt: new Date() },
    });
  }
  throw new ServiceError(INVALID_REFRESH, 401);
}

/**
 * Sign-out of an /api client. The live refresh token is its own proof of possession; when the
 * call also carries a signed-in caller, only that caller's token is revoked, so nobody can end
 * another account's sign-in with a token that is not theirs. The whole family ends with it, so
 * its access tokens stop working too. Returns whether one was revoked.
 */
export async function revokeRefreshToken(token: string, callerId?: string, now = new Date()) {
  const live = await prisma.refreshToken.findFirst({
    where: { tokenHash: hashToken(token), revokedAt: null, rotatedAt: null, expiresAt: { gt: now }, ...(callerId ? { userId: callerId } : {}) },
    select: { familyId: true },
  });
  if (!live) return false;
  const { count } = await prisma.refreshToken.updateMany({ where: { familyId: live.familyId, revokedAt: null }, data: { revokedAt: now } });
  return count > 0;
}

/** Ends every way the user is signed in (after a password reset, a block). */
export async function endAllSessions(userId: string, tx: Prisma.TransactionClient = prisma) {
  await tx.session.deleteMany({ where: { userId } });
  await tx.refreshToken.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: new Date() } });
}

export async function purgeExpiredCredentials(now = new Date()) {
  const [sessions, refresh, oneTime, challenges] = await prisma.$transaction([
    prisma.session.deleteMany({ where: { expiresAt: { lt: now } } }),
    prisma.refreshToken.deleteMany({ where: { expiresAt: { lt: now } } }),
    // A used link is kept until it expires: a verification link opened again in that time says
    // "already verified", which it could not once the hourly purge had removed its row.
    prisma.oneTimeToken.deleteMany({ where: { expiresAt: { lt: now } } }),
    prisma.authChallenge.deleteMany({ where: { expiresAt: { lt: now } } }),
  ]);
  return { sessions: sessions.count, refreshTokens: refresh.count, oneTimeTokens: oneTime.count, authChallenges: challenges.count };
}
