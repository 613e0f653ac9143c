import { prisma } from "~/lib/db.server.ts";
import { isActive, type AccessTarget } from "./access.server.ts";
import { covers, licenceSelect } from "./embeds.server.ts";

/**
 * Whether a patient link may play `animation` now: the link is neither revoked nor expired, it
 * names the animation, and its licence is active and still covers it. Read afresh for every
 * media request (a revoked link stops at the player's next range or segment), in one query.
 */
export async function patientLinkPlays(linkId: string, animation: AccessTarget, now = new Date()) {
  const link = await prisma.patientLink.findFirst({
    where: { id: linkId, revokedAt: null, expiresAt: { gt: now }, animations: { some: { animationId: animation.id } } },
    select: { subscription: { select: licenceSelect } },
  });
  return link !== null && isActive(link.subscription, now) && covers(link.subscription, animation);
}
