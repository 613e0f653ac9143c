import crypto from "node:crypto";
import { hashPassword } from "~/lib/crypto.server.ts";
import { prisma } from "~/lib/db.server.ts";
import { createSession } from "~/lib/session.server.ts";
import { issueTokens } from "~/services/auth/credentials.server.ts";
import type { Prisma } from "~/generated/prisma/client.ts";

export const TEST_PASSWORD = "correct-horse-1";

let passwordHash: Promise<string> | undefined;

/** A user with the password TEST_PASSWORD (hashed once per file: argon2 is slow on purpose). */
export async function createUser(overrides: Partial<Prisma.UserCreateInput> = {}) {
  passwordHash ??= hashPassword(TEST_PASSWORD);
  const n = crypto.randomBytes(4).toString("hex");
  return prisma.user.create({
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
}

/** A signed-in browser: the session cookie header for this user. */
export async function sessionCookieFor(userId: string) {
  const setCookie = await createSession(userId, new Request("http://localhost:3000/"));
  return setCookie.split(";")[0]!;
}

export async function accessTokenFor(userId: string) {
  return (await issueTokens(userId)).accessToken;
}

// ---- account / billing (issue 5) ----

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
