import type { RouterContextProvider } from "react-router";
import { prisma } from "~/lib/db.server.ts";
import { createSession } from "~/lib/session.server.ts";
import { ServiceError, tooManyRequests } from "~/lib/errors.server.ts";
import { clearRateLimit, consumeRateLimit, SIGN_IN_RULE, tooManyAttemptsMessage, type RateLimitRule } from "~/lib/rate-limit.server.ts";
import { consumeChallenge, countFailedAttempt, createChallenge, openChallenge } from "./challenges.server.ts";
import { ACCOUNT_BLOCKED, issueTokens, publicUserSelect, type PublicUser, verifyLogin } from "./credentials.server.ts";
import { signInClient } from "./device.server.ts";
import { noteSignIn } from "./security-alerts.server.ts";
import { type CodeKind, verifySecondFactorCode } from "./second-factor.server.ts";

// Sign-in for the /auth form and POST /api/auth/login alike: the limits, the credential check,
// and the limits forgotten on success (so only failures add up).

/**
 * Failures on one account from every address together. The per-client rule alone can be dodged
 * by rotating the client address (found by the fuzzer); this budget is larger so one noisy
 * network does not lock a real user out.
 */
export const SIGN_IN_ACCOUNT_RULE: RateLimitRule = { limit: 50, windowMs: 15 * 60 * 1000 };

/**
 * The user for these credentials, or a ServiceError: 429 "Too many attempts..." (with the
 * seconds to wait), 401 INVALID_CREDENTIALS, 403 ACCOUNT_BLOCKED.
 */
export async function signIn(credentials: { email: string; password: string }, client: string): Promise<PublicUser> {
  const account = credentials.email.toLowerCase();
  const clientKey = `signin:${client}:${account}`;
  const accountKey = `signin-account:${account}`;
  const perClient = await consumeRateLimit(clientKey, SIGN_IN_RULE);
  if (!perClient.allowed) throw tooManyRequests(tooManyAttemptsMessage(perClient.retryAfterSeconds), perClient.retryAfterSeconds);
  const perAccount = await consumeRateLimit(accountKey, SIGN_IN_ACCOUNT_RULE);
  if (!perAccount.allowed) throw tooManyRequests(tooManyAttemptsMessage(perAccount.retryAfterSeconds), perAccount.retryAfterSeconds);
  const user = await verifyLogin(credentials.email, credentials.password);
  await clearRateLimit(clientKey, accountKey);
  return user;
}

// ---- the second step ----

export const SIGN_IN_STEP_EXPIRED = "Your sign-in has expired. Please sign in again.";
/** The browser's page for the second step. */
export const SECOND_STEP_PATH = "/auth/two-step";

/** After a right password: the single-use token of the second step (5 minutes). */
export function beginSecondStep(userId: string, redirectTo?: string | null) {
  return createChallenge("sign_in", { userId, redirectTo: redirectTo ?? null });
}

/**
 * The second step with a code (authenticator or recovery): the user and where the browser
 * continues. The token works once; wrong codes count against it (five end it) and against the
 * account and address limits. A blocked account's factors do not help.
 */
export async function completeSecondStep(token: string | null | undefined, code: string, client: string) {
  const challenge = await openChallenge(token, "sign_in");
  if (!challenge?.userId) throw new ServiceError(SIGN_IN_STEP_EXPIRED, 401);
  const user = await prisma.user.findUnique({ where: { id: challenge.userId }, select: publicUserSelect });
  if (!user) throw new ServiceError(SIGN_IN_STEP_EXPIRED, 401);
  if (!user.isActive) throw new ServiceError(ACCOUNT_BLOCKED, 403);
  let kind: CodeKind;
  try {
    kind = await verifySecondFactorCode(user.id, code, client);
  } catch (error) {
    if (error instanceof ServiceError && error.status === 400) await countFailedAttempt(challenge.id);
    throw error;
  }
  if (!(await consumeChallenge(challenge.id))) throw new ServiceError(SIGN_IN_STEP_EXPIRED, 401);
  return { user, redirectTo: challenge.redirectTo, kind };
}

// ---- signed in ----

type SignInOptions = { /** This sign-in confirmed a second factor: it counts as a step-up. */ secondFactor?: boolean };

/** A browser is signed in: its session cookie, with the device noted (and announced when new). */
export async function startBrowserSession(
  user: PublicUser,
  request: Request,
  context: Readonly<RouterContextProvider> | undefined,
  { secondFactor = false }: SignInOptions = {},
) {
  const client = signInClient(request, context);
  const cookie = await createSession(user.id, { ...client, stepUpAt: secondFactor ? new Date() : null });
  await noteSignIn(user, client);
  return cookie;
}

/** An /api client is signed in: a new token family and the user, with the device noted. */
export async function issueSignInTokens(
  user: PublicUser,
  request: Request,
  context: Readonly<RouterContextProvider> | undefined,
  { secondFactor = false }: SignInOptions = {},
) {
  const client = signInClient(request, context);
  const tokens = await issueTokens(user.id, { client, stepUpAt: secondFactor ? new Date() : null });
  await noteSignIn(user, client);
  return { ...tokens, user };
}
