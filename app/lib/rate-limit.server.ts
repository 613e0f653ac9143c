import type { RouterContextProvider } from "react-router";
import { requestInfo } from "./request-context.server.ts";
import { prisma } from "./db.server.ts";
import { tooManyRequests } from "./errors.server.ts";
import { getEnv } from "./env.server.ts";

export type RateLimitRule = { limit: number; windowMs: number };

/**
 * Counts one attempt for `key` and says whether it is within the rule. The counter is a row in
 * the database (one atomic upsert), so a limit holds across every app instance.
 */
export async function consumeRateLimit(key: string, rule: RateLimitRule, now = new Date()) {
  const resetAt = new Date(now.getTime() + rule.windowMs);
  const [row] = await prisma.$queryRaw<Array<{ count: number; resetAt: Date }>>`
    INSERT INTO "RateLimit" ("key", "count", "resetAt") VALUES (${key}, 1, ${resetAt})
    ON CONFLICT ("key") DO UPDATE SET
      "count" = CASE WHEN "RateLimit"."resetAt" <= ${now} THEN 1 ELSE "RateLimit"."count" + 1 END,
      "resetAt" = CASE WHEN "RateLimit"."resetAt" <= ${now} THEN ${resetAt} ELSE "RateLimit"."resetAt" END
    RETURNING "count", "resetAt"`;
  const count = Number(row!.count);
  const retryAfterSeconds = Math.max(1, Math.ceil((new Date(row!.resetAt).getTime() - now.getTime()) / 1000));
  return { allowed: count <= rule.limit, retryAfterSeconds };
}

/**
 * Takes back one attempt counted by consumeRateLimit, within the same window: for limits on
 * failures (a right second-factor code), counted up front so that parallel guesses cannot
 * overtake the limit, and returned once the attempt turned out right. Never below zero, and a
 * window that has ended is left to reset on its own.
 */
export async function refundRateLimit(key: string, now = new Date()) {
  await prisma.$executeRaw`UPDATE "RateLimit" SET "count" = "count" - 1 WHERE "key" = ${key} AND "count" > 0 AND "resetAt" > ${now}`;
}

/** Forgets keys' attempts: a successful sign-in clears the failures counted before it. */
export async function clearRateLimit(...keys: string[]) {
  await prisma.rateLimit.deleteMany({ where: { key: { in: keys } } });
}

export async function purgeRateLimits(now = new Date()) {
  return (await prisma.rateLimit.deleteMany({ where: { resetAt: { lt: now } } })).count;
}

export function tooManyAttemptsMessage(retryAfterSeconds: number) {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

/**
 * The client's address as Express saw it, passed in the load context: the connection's, or the
 * X-Forwarded-For entry a proxy named in TRUST_PROXY added (never the client's own claim).
 */
export function clientAddress(context: Readonly<RouterContextProvider> | undefined) {
  return requestInfo(context).clientIp ?? "unknown";
}

export const SIGN_IN_RULE: RateLimitRule = { limit: 10, windowMs: 15 * 60 * 1000 };
/**
 * Token refreshes per client address: an app refreshes once per 15-minute access token, so 300
 * leaves room for a clinic of a hundred people behind one address.
 */
export const REFRESH_RULE: RateLimitRule = { limit: 300, windowMs: 15 * 60 * 1000 };
export function signUpRule(): RateLimitRule {
  return { limit: getEnv().SIGNUPS_PER_HOUR, windowMs: 60 * 60 * 1000 };
}

/** Counts an attempt; past the rule's limit throws 429 with the "Too many attempts" message. */
export async function enforceRateLimit(key: string, rule: RateLimitRule) {
  const limit = await consumeRateLimit(key, rule);
  if (!limit.allowed) throw tooManyRequests(tooManyAttemptsMessage(limit.retryAfterSeconds), limit.retryAfterSeconds);
}
