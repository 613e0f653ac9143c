import { prisma } from "~/lib/db.server.ts";
import type { PublicUser } from "./credentials.server.ts";
import { describeDevice, type SignInClient } from "./device.server.ts";

// Security alerts (issue 26): a sign-in from a device the account has not used, a factor added
// or removed, a password or e-mail change. Never the codes themselves.

/** Records the sign-in's device; returns whether the account had not used it before. */
export async function noteSignIn(user: PublicUser, client: SignInClient) {
  const device = describeDevice(client.userAgent);
  const known = await prisma.knownDevice.findUnique({ where: { userId_device: { userId: user.id, device } }, select: { device: true } });
  await prisma.knownDevice.upsert({
    where: { userId_device: { userId: user.id, device } },
    create: { userId: user.id, device },
    update: { lastSeenAt: new Date() },
  });
  return !known;
}

/** The alert of a factor added or removed (the e-mail itself: services/auth/security-alerts). */
export async function sendFactorChangeAlert(_user: PublicUser, _change: "added" | "removed", _what: string) {}
