import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import { prisma } from "~/lib/db.server.ts";
import { ServiceError } from "~/lib/errors.server.ts";
import type { RateLimitRule } from "~/lib/rate-limit.server.ts";
import { siteOrigin } from "~/lib/seo.server.ts";
import { recordAudit } from "~/services/admin/audit.server.ts";
import { sendFactorChangeAlert } from "./security-alerts.server.ts";
import { consumeChallenge, createChallenge, openChallenge } from "./challenges.server.ts";
import { ACCOUNT_BLOCKED, publicUserSelect, type PublicUser } from "./credentials.server.ts";
import { describeDevice } from "./device.server.ts";
import { getCredential, requireUser } from "./guards.server.ts";
import { endPasswordOnlySignIns } from "./sessions.server.ts";
import { SIGN_IN_STEP_EXPIRED } from "./sign-in.server.ts";
import { recordStepUp } from "./step-up.server.ts";

// Passkeys (WebAuthn, decision 019): a first factor on their own (discoverable
// credentials, the user verified by the device) or a second factor after a password, and a
// step-up. Every ceremony's challenge is an AuthChallenge row: single use, five minutes, bound
// to the account it was made for. The protocol checks are @simplewebauthn/server's.

export const RP_NAME = "Medanim";
export const PASSKEY_EXPIRED = "This passkey request has expired. Please try again.";
export const PASSKEY_NOT_VERIFIED = "We could not verify this passkey. Please try again.";
export const PASSKEY_UNKNOWN = "This passkey is not registered with Medanim. Sign in with your password instead.";
export const PASSKEY_NAME_MAX = 60;
/** Anonymous sign-in challenges per client address: each one is a stored row. */
export const PASSKEY_CHALLENGE_RULE: RateLimitRule = { limit: 30, windowMs: 15 * 60 * 1000 };

/** The relying party is the site: its host is the rpID, its origin the only one accepted. */
function relyingParty(request: Request) {
  const origin = siteOrigin(request);
  return { rpID: new URL(origin).hostname, origin };
}

/** The WebAuthn user handle: the account's id, so an authenticator keeps one passkey per account. */
function userHandle(userId: string) {
  return new TextEncoder().encode(userId);
}

export async function listPasskeys(userId: string) {
  return prisma.passkey.findMany({
    where: { userId },
    select: { id: true, name: true, createdAt: true, lastUsedAt: true },
    orderBy: { createdAt: "asc" },
  });
}

// ---- registration ----

export async function startPasskeyRegistration(user: PublicUser, request: Request) {
  const existing = await prisma.passkey.findMany({ where: { userId: user.id }, select: { id: true, transports: true } });
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: relyingParty(request).rpID,
    userName: user.email,
    userID: userHandle(user.id),
    userDisplayName: `${user.firstName} ${user.lastName}`.trim() || user.username,
    attestationType: "none",
    excludeCredentials: existing.map(({ id, transports }) => ({ id, transports })),
    // Discoverable, so the passkey can sign in on its own without an e-mail typed first.
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
  });
  const token = await createChallenge("passkey_register", { userId: user.id, challenge: options.challenge });
  return { token, options };
}

/**
 * Verifies the authenticator's answer to a registration challenge of this user and stores the
 * passkey with its audit entry; the account's sign-ins that used only the password end, and the
 * caller's counts as confirmed (sessions.server.ts). The challenge is spent whether or not the
 * answer verifies.
 */
export async function finishPasskeyRegistration(
  user: PublicUser,
  request: Request,
  input: { token: string; response: RegistrationResponseJSON; name?: string | null },
) {
  const challenge = await openChallenge(input.token, "passkey_register");
  if (!challenge?.challenge || challenge.userId !== user.id || !(await consumeChallenge(challenge.id))) {
    throw new ServiceError(PASSKEY_EXPIRED, 400);
  }
  const { rpID, origin } = relyingParty(request);
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response: input.response,
      expectedChallenge: challenge.challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
    });
  } catch {
    throw new ServiceError(PASSKEY_NOT_VERIFIED, 400);
  }
  if (!verification.verified) throw new ServiceError(PASSKEY_NOT_VERIFIED, 400);
  const info = verification.registrationInfo;
  const name = input.name?.trim().slice(0, PASSKEY_NAME_MAX) || `Passkey on ${describeDevice(request.headers.get("user-agent"))}`;
  const current = await getCredential(request);
  const added = await prisma.$transaction(async (tx) => {
    if (await tx.passkey.findUnique({ where: { id: info.credential.id }, select: { id: true } })) {
      throw new ServiceError("This passkey is already registered.", 409);
    }
    const passkey = await tx.passkey.create({
      data: {
        id: info.credential.id,
        userId: user.id,
        publicKey: Buffer.from(info.credential.publicKey).toString("base64url"),
        counter: info.credential.counter,
        transports: info.credential.transports ?? [],
        deviceType: info.credentialDeviceType,
        backedUp: info.credentialBackedUp,
        name,
      },
      select: { id: true, name: true },
    });
    await recordAudit(tx, user, { action: "security.passkey_add", entityType: "security", entityId: user.id, summary: `Added a passkey (“${name}”)` });
    return { passkey, endedSignIns: await endPasswordOnlySignIns(tx, user, current) };
  });
  await sendFactorChangeAlert(user, "added", `the passkey “${added.passkey.name}”`, added.endedSignIns);
  return added.passkey;
}

/** Removes one of the user's passkeys; the recovery codes go with the last factor. */
export async function removePasskey(user: PublicUser, passkeyId: string) {
  const removed = await prisma.$transaction(async (tx) => {
    const passkey = await tx.passkey.findFirst({ where: { id: passkeyId, userId: user.id }, select: { id: true, name: true } });
    if (!passkey) throw new ServiceError("That passkey was not found. It may have been removed already.", 404);
    await tx.passkey.delete({ where: { id: passkey.id } });
    const [passkeysLeft, totp] = await Promise.all([
      tx.passkey.count({ where: { userId: user.id } }),
      tx.totpFactor.findFirst({ where: { userId: user.id, confirmedAt: { not: null } }, select: { userId: true } }),
    ]);
    if (passkeysLeft === 0 && !totp) await tx.recoveryCode.deleteMany({ where: { userId: user.id } });
    await recordAudit(tx, user, {
      action: "security.passkey_remove",
      entityType: "security",
      entityId: user.id,
      summary: `Removed a passkey (“${passkey.name}”)`,
    });
    return passkey;
  });
  await sendFactorChangeAlert(user, "removed", `the passkey “${removed.name}”`);
  return removed;
}

// ---- authentication ----

/**
 * A sign-in challenge. Without a user: any passkey of this site may answer (discoverable sign-in,
 * the first factor), and the device must verify its user. With one: only that account's passkeys
 * (the second step after a password, or a step-up).
 */
export async function startPasskeyAuthentication(request: Request, userId: string | null) {
  let allowCredentials: { id: string; transports: string[] }[] | undefined;
  if (userId) {
    allowCredentials = await prisma.passkey.findMany({ where: { userId }, select: { id: true, transports: true } });
    if (!allowCredentials.length) throw new ServiceError("This account has no passkey yet.", 400);
  }
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(request).rpID,
    allowCredentials,
    userVerification: userId ? "preferred" : "required",
  });
  const token = await createChallenge("passkey_sign_in", { userId, challenge: options.challenge });
  return { token, options };
}

/**
 * The account whose passkey answered the challenge. The challenge is spent first, so an assertion
 * cannot be replayed; it must have been made for `userId` (null: a first-factor sign-in), and the
 * passkey must belong to that user. A signature counter that does not move forward is refused
 * (a cloned authenticator). A blocked account's passkeys do not help.
 */
export async function verifyPasskeyAuthentication(request: Request, token: string, response: AuthenticationResponseJSON, userId: string | null) {
  const challenge = await openChallenge(token, "passkey_sign_in");
  if (!challenge?.challenge || challenge.userId !== userId || !(await consumeChallenge(challenge.id))) {
    throw new ServiceError(PASSKEY_EXPIRED, 400);
  }
  const passkey = await prisma.passkey.findUnique({ where: { id: response.id }, include: { user: { select: publicUserSelect } } });
  const handle = response.response.userHandle;
  if (!passkey || (userId && passkey.userId !== userId) || (handle && handle !== Buffer.from(userHandle(passkey.userId)).toString("base64url"))) {
    throw new ServiceError(PASSKEY_UNKNOWN, 400);
  }
  if (!passkey.user.isActive) throw new ServiceError(ACCOUNT_BLOCKED, 403);
  const { rpID, origin } = relyingParty(request);
  let verification;
  try {
    verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge.challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: { id: passkey.id, publicKey: Buffer.from(passkey.publicKey, "base64url"), counter: Number(passkey.counter), transports: passkey.transports },
      requireUserVerification: userId === null,
    });
  } catch {
    throw new ServiceError(PASSKEY_NOT_VERIFIED, 400);
  }
  if (!verification.verified) throw new ServiceError(PASSKEY_NOT_VERIFIED, 400);
  // Only from the counter read above: two assertions racing with one counter value, one loses.
  const { count } = await prisma.passkey.updateMany({
    where: { id: passkey.id, counter: passkey.counter },
    data: { counter: verification.authenticationInfo.newCounter, lastUsedAt: new Date() },
  });
  if (count !== 1) throw new ServiceError(PASSKEY_NOT_VERIFIED, 400);
  return passkey.user;
}

/** The second step of a browser sign-in with a passkey of the account whose password was right. */
export async function completeSecondStepWithPasskey(request: Request, signInToken: string | null, token: string, response: AuthenticationResponseJSON) {
  const step = await openChallenge(signInToken, "sign_in");
  if (!step?.userId) throw new ServiceError(SIGN_IN_STEP_EXPIRED, 401);
  const user = await verifyPasskeyAuthentication(request, token, response, step.userId);
  if (!(await consumeChallenge(step.id))) throw new ServiceError(SIGN_IN_STEP_EXPIRED, 401);
  return { user, redirectTo: step.redirectTo };
}

/** Step-up with one of the signed-in user's passkeys. */
export async function stepUpWithPasskey(request: Request, token: string, response: AuthenticationResponseJSON) {
  const user = await requireUser(request);
  const credential = await getCredential(request);
  if (!credential) throw new ServiceError("Authentication required", 401);
  await verifyPasskeyAuthentication(request, token, response, user.id);
  await recordStepUp(user, credential, "passkey");
  return user;
}
