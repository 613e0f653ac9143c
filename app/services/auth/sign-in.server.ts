import { tooManyRequests } from "~/lib/errors.server.ts";
import { clearRateLimit, consumeRateLimit, SIGN_IN_RULE, tooManyAttemptsMessage, type RateLimitRule } from "~/lib/rate-limit.server.ts";
import { type PublicUser, verifyLogin } from "./credentials.server.ts";

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
