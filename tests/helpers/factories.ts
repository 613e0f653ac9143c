import crypto from "node:crypto";
import { hashPassword } from "~/lib/crypto.server.ts";
import { prisma } from "~/lib/db.server.ts";
import { createSession } from "~/lib/session.server.ts";
import { issueTokens } from "~/services/auth.server.ts";
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
