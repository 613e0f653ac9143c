import crypto from "node:crypto";
import { hashPassword } from "~/lib/crypto.server.ts";
import { prisma } from "~/lib/db.server.ts";
import { createSession } from "~/lib/session.server.ts";
import { generate, generateSecret } from "otplib";
import { sealSecret } from "~/lib/secret-box.server.ts";
import { issueTokens } from "~/services/auth/credentials.server.ts";
import { STEP_UP_WINDOW_MS } from "~/services/auth/step-up.server.ts";
import type { Prisma } from "~/generated/prisma/client.ts";

export const TEST_PASSWORD = "correct-horse-1";

let passwordHash: Promise<string> | undefined;

/**
 * A user with the password TEST_PASSWORD (hashed once per file: argon2 is slow on purpose). An
 * admin gets an authenticator app, as every admin must have before using the back office
 * (decision 019), unless `secondFactor: false`; its secret is `totpSecrets.get(user.id)`.
 */
export async function createUser(overrides: Partial<Prisma.UserCreateInput> = {}, options: { secondFactor?: boolean } = {}) {
  passwordHash ??= hashPassword(TEST_PASSWORD);
  const n = crypto.randomBytes(4).toString("hex");
  const user = await prisma.user.create({
    data: {
      email: `user-${n}@example.com`,
      username: `user_${n}`,
      firstName: "Test",
      lastName: `User ${n}`,
      password: await passwordHash,
      isEmailVerified: true,
      notificationPreferences: { create: {} },
      ...overrides,
    },
  });
  if (options.secondFactor ?? user.role === "admin") await enrolTotp(user.id);
  return user;
}

/** The authenticator secrets set up by enrolTotp, by user id. */
export const totpSecrets = new Map<string, string>();

/** A confirmed authenticator app for the user, as /profile leaves it; returns the secret. */
export async function enrolTotp(userId: string) {
  const secret = generateSecret();
  await prisma.totpFactor.create({ data: { userId, secret: sealSecret(secret), confirmedAt: new Date() } });
  totpSecrets.set(userId, secret);
  return secret;
}

/** The authenticator's code for `secret`, `steps` 30-s windows from now. */
export function totpCode(secret: string, steps = 0) {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
}

/**
 * When a sign-in last confirmed a second factor: "now" (as a sign-in with one does), "earlier"
 * (at sign-in, longer ago than the step-up window: protected actions ask again), or "never"
 * (the password alone, as before the account had a factor).
 */
export type FactorConfirmed = "now" | "earlier" | "never";

function stepUpAt(confirmed: FactorConfirmed) {
  if (confirmed === "never") return null;
  return new Date(confirmed === "now" ? Date.now() : Date.now() - STEP_UP_WINDOW_MS - 60_000);
}

/** A signed-in browser: the session cookie header for this user. */
export async function sessionCookieFor(userId: string, { stepUp = "now" }: { stepUp?: FactorConfirmed } = {}) {
  const setCookie = await createSession(userId, { userAgent: "vitest", stepUpAt: stepUpAt(stepUp) });
  return setCookie.split(";")[0]!;
}

/** An /api access token of a new token family. */
export async function accessTokenFor(userId: string, { stepUp = "now" }: { stepUp?: FactorConfirmed } = {}) {
  return (await issueTokens(userId, { stepUpAt: stepUpAt(stepUp) })).accessToken;
}

// ---- account / billing ----

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A subscription of `userId` with one completed payment (what a purchase leaves behind).
 * `paidDaysAgo` dates the payment; the subscription runs a year from it unless `endDate` says.
 */
export async function createPaidSubscription(
  userId: string,
  options: {
    type?: "global" | "category" | "individual";
    status?: "active" | "canceled" | "expired" | "pending";
    categoryId?: string;
    animationId?: string;
    amount?: number;
    paidDaysAgo?: number;
    endDate?: Date;
    paymentStatus?: "pending" | "completed" | "failed" | "refunded";
    description?: string;
  } = {},
) {
  const type = options.type ?? "global";
  const paidAt = new Date(Date.now() - (options.paidDaysAgo ?? 1) * DAY_MS);
  const amount = options.amount ?? (type === "global" ? 99 : 299);
  const subscription = await prisma.subscription.create({
    data: {
      userId,
      type,
      status: options.status ?? "active",
      startDate: paidAt,
      endDate: options.endDate ?? new Date(paidAt.getTime() + 365 * DAY_MS),
      price: amount,
      categoryId: options.categoryId ?? null,
      animationId: options.animationId ?? null,
    },
  });
  const payment = await prisma.payment.create({
    data: {
      userId,
      subscriptionId: subscription.id,
      amount,
      status: options.paymentStatus ?? "completed",
      subscriptionType: type,
      description: options.description ?? `${type} subscription`,
      createdAt: paidAt,
    },
  });
  return { subscription, payment };
}
