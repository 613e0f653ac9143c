import { prisma } from "~/lib/db.server.ts";
import { formatDateTime } from "~/lib/format.ts";
import { logger } from "~/lib/logger.server.ts";
import { appUrl } from "~/lib/mail.server.ts";
import { sendSecurityAlert } from "~/services/auth/account.server.ts";
import type { PublicUser } from "./credentials.server.ts";
import { describeDevice, describePlace, type SignInClient } from "./device.server.ts";

// Security alerts: a sign-in from a device the account has not used, a factor added
// or removed, a password or e-mail change (those two in services/auth/account.server.ts). Each goes
// through sendSecurityAlert, which honours emailSecurityAlerts. Never the codes themselves.

type AlertRecipient = Pick<PublicUser, "id" | "email" | "firstName">;

/**
 * Records the sign-in's device; returns whether the account had not used it before. A new
 * device is announced by mail, except the account's first (its sign-up, or its first sign-in
 * since devices were recorded), which nobody needs to be warned about.
 */
export async function noteSignIn(user: AlertRecipient, client: SignInClient, now = new Date()) {
  const device = describeDevice(client.userAgent);
  const [known, devices] = await Promise.all([
    prisma.knownDevice.findUnique({ where: { userId_device: { userId: user.id, device } }, select: { device: true } }),
    prisma.knownDevice.count({ where: { userId: user.id } }),
  ]);
  await prisma.knownDevice.upsert({
    where: { userId_device: { userId: user.id, device } },
    create: { userId: user.id, device, lastSeenAt: now },
    update: { lastSeenAt: now },
  });
  if (!known && devices > 0) await sendAlert(user, newDeviceMessage(device, client, now));
  return !known;
}

function newDeviceMessage(device: string, client: SignInClient, now: Date) {
  const from = [describePlace(client.place), client.ipAddress].filter(Boolean).join(", ");
  return (
    `Your account was signed in on ${device}${from ? ` (${from})` : ""} on ${formatDateTime(now)}, a device it had not used before. ` +
    `If this was you, there is nothing to do. If not, sign that device out under "Where you're signed in" at ${appUrl()}/profile#sessions and change your password.`
  );
}

/**
 * A second factor was added to or removed from the account; `what` names it for people ("an
 * authenticator app", "the passkey “Work laptop”"), `endedSignIns` counts the sign-ins that used
 * only the password and were ended with the addition. Call it after the change has committed.
 */
export async function sendFactorChangeAlert(user: AlertRecipient, change: "added" | "removed", what: string, endedSignIns = 0) {
  const message =
    change === "added"
      ? `Two-step sign-in on your account changed: ${what} was added. From now on it can confirm your sign-ins.`
      : `Two-step sign-in on your account changed: ${what} was removed and can no longer confirm your sign-ins.`;
  const ended =
    endedSignIns > 0
      ? ` ${endedSignIns === 1 ? "One other sign-in" : `${endedSignIns} other sign-ins`} that had used only your password ${endedSignIns === 1 ? "was" : "were"} signed out.`
      : "";
  return sendAlert(user, `${message}${ended} You can review your sign-in methods at ${appUrl()}/profile.`);
}

/** A failed alert is logged and the action that caused it goes on: a mail outage must not lock anyone out. */
async function sendAlert(user: AlertRecipient, message: string) {
  try {
    return await sendSecurityAlert(user, message);
  } catch (error) {
    logger.error({ err: error, userId: user.id }, "security alert failed");
    return false;
  }
}
