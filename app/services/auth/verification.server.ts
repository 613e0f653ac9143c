import { createOpaqueToken } from "~/lib/crypto.server.ts";
import { prisma } from "~/lib/db.server.ts";
import { appUrl, sendTemplatedEmail } from "~/lib/mail.server.ts";

export const VERIFY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * A single-use verification link for the user's current (or new) address. Earlier unused links
 * for the same purpose stop working: only the newest mail's link counts.
 */
/**
 * Mails the verification link. `next` (a same-site path, such as the purchase the member signed
 * up from) travels in the link: verifying then continues there.
 */
export async function sendVerificationEmail(user: { id: string; email: string; firstName: string }, next?: string) {
  const { token, tokenHash } = createOpaqueToken();
  await prisma.$transaction([
    prisma.oneTimeToken.deleteMany({ where: { userId: user.id, purpose: "verify_email", usedAt: null } }),
    prisma.oneTimeToken.create({
      data: {
        userId: user.id,
        purpose: "verify_email",
        tokenHash,
        email: user.email,
        expiresAt: new Date(Date.now() + VERIFY_TTL_MS),
      },
    }),
  ]);
  return sendTemplatedEmail({
    template: "email_verification",
    to: user.email,
    userId: user.id,
    variables: {
      firstName: user.firstName,
      verificationUrl: `${appUrl()}/verify-email?token=${encodeURIComponent(token)}${next ? `&next=${encodeURIComponent(next)}` : ""}`,
    },
  });
}
