import { prisma } from "~/lib/db.server.ts";
import { notFound, ServiceError } from "~/lib/errors.server.ts";
import { logger } from "~/lib/logger.server.ts";
import { appUrl } from "~/lib/mail.server.ts";
import { getPaymentProvider } from "~/lib/payments/index.server.ts";
import type { Card } from "~/lib/payments/provider.server.ts";
import { type TestCardNumber, testCard } from "~/lib/payments/test-mode.server.ts";
import { UUID_RE } from "~/validation/account.ts";
import type { PublicUser } from "../auth/credentials.server.ts";
import { activeLicenceWhere } from "../licensing/access.server.ts";

// The member's card on file: what /billing shows, and replacing it on the provider's hosted page
// (Stripe: a Checkout Session in setup mode; test mode: /checkout/test/card/{id}), so renewals
// are charged to the new card. Each attempt is a CardSetup row, completed once.

export const CARD_SETUP_NOT_FOUND = "Card setup not found";
export const CARD_SETUP_FAILED = "The payment provider could not open its card page. Nothing was changed; please try again.";
export const CARD_NOT_SAVED = "No card was saved. Your card on file is unchanged.";

/** The card renewals are charged to, or null when none is recorded. */
export async function getCardOnFile(userId: string): Promise<Card | null> {
  const user = await prisma.user.findUnique({ where: { id: userId }, select: { cardBrand: true, cardLast4: true, cardExpMonth: true, cardExpYear: true } });
  if (!user?.cardBrand || !user.cardLast4 || !user.cardExpMonth || !user.cardExpYear) return null;
  return { brand: user.cardBrand, last4: user.cardLast4, expMonth: user.cardExpMonth, expYear: user.cardExpYear };
}

/** "Replace card" on /billing: a CardSetup and the provider's page to send the member to (303). */
export async function startCardReplacement(user: PublicUser) {
  const provider = getPaymentProvider();
  const setup = await prisma.cardSetup.create({ data: { userId: user.id, provider: provider.name }, select: { id: true } });
  const stored = await prisma.user.findUniqueOrThrow({ where: { id: user.id }, select: { stripeCustomerId: true } });
  const back = `${appUrl()}/billing/card?setup=${setup.id}`;
  let started;
  try {
    started = await provider.startCardSetup(
      {
        setupId: setup.id,
        customer: { userId: user.id, email: user.email, name: `${user.firstName} ${user.lastName}`.trim(), providerCustomerId: stored.stripeCustomerId },
        successUrl: back,
        cancelUrl: `${back}&canceled=1`,
      },
      `card-setup-${setup.id}`,
    );
  } catch (error) {
    logger.error({ err: error, setupId: setup.id }, "provider startCardSetup failed");
    await prisma.cardSetup.update({ where: { id: setup.id }, data: { status: "canceled" } });
    throw new ServiceError(CARD_SETUP_FAILED, 502);
  }
  await prisma.cardSetup.update({ where: { id: setup.id }, data: { providerSetupId: started.providerSetupId } });
  if (started.providerCustomerId) await prisma.user.update({ where: { id: user.id }, data: { stripeCustomerId: started.providerCustomerId } });
  return { url: started.url };
}

async function findOwnSetup(user: { id: string }, setupId: string) {
  const setup = UUID_RE.test(setupId) ? await prisma.cardSetup.findUnique({ where: { id: setupId } }) : null;
  // Someone else's attempt is answered like a missing one.
  if (!setup || setup.userId !== user.id) throw notFound(CARD_SETUP_NOT_FOUND);
  return setup;
}

/**
 * Records the saved card once: the attempt is claimed (open → completed) in the same transaction
 * as the card, so a return page loaded twice, or in two tabs, records it once.
 */
async function recordCard(userId: string, setupId: string, card: Card) {
  return prisma.$transaction(async (tx) => {
    const { count } = await tx.cardSetup.updateMany({ where: { id: setupId, status: "open" }, data: { status: "completed", completedAt: new Date() } });
    if (count === 1) {
      await tx.user.update({
        where: { id: userId },
        data: { cardBrand: card.brand, cardLast4: card.last4, cardExpMonth: card.expMonth, cardExpYear: card.expYear },
      });
    }
    return count === 1;
  });
}

/**
 * Back from the provider's page (/billing/card?setup=…): the provider is asked what was saved
 * (never the query string), the card becomes the default of the member's renewing
 * subscriptions there, and is recorded. Returns the card on file, or throws 409 when none was saved.
 */
export async function finishCardReplacement(user: { id: string }, setupId: string, options: { canceled?: boolean } = {}) {
  const setup = await findOwnSetup(user, setupId);
  if (setup.status === "completed") return (await getCardOnFile(user.id))!;
  if (options.canceled) throw new ServiceError(CARD_NOT_SAVED, 409);
  const card = await completeSetup(setup);
  if (!card) throw new ServiceError(CARD_NOT_SAVED, 409);
  return card;
}

/**
 * The provider's report that a card was saved on its page (Stripe: checkout.session.completed in
 * setup mode): recorded as if the member had come back. Once, whichever comes first.
 */
export async function recordSavedCard(setupId: string) {
  const setup = UUID_RE.test(setupId) ? await prisma.cardSetup.findUnique({ where: { id: setupId } }) : null;
  if (!setup) {
    logger.warn({ setupId }, "a saved card for an unknown card setup was not recorded");
    return false;
  }
  return setup.status === "open" && (await completeSetup(setup)) !== null;
}

/** Asks the provider what its page saved, makes it the renewals' card and records it; null when none was saved. */
async function completeSetup(setup: { id: string; userId: string; status: string; provider: string; providerSetupId: string | null }) {
  const user = { id: setup.userId };
  if (setup.status !== "open" || !setup.providerSetupId || setup.provider !== getPaymentProvider().name) return null;
  const renewing = await prisma.subscription.findMany({
    // Every renewing term this member pays for, their own and those they bought for a practice.
    where: activeLicenceWhere(new Date(), { userId: user.id, autoRenew: true, stripeSubscriptionId: { not: null } }),
    select: { stripeSubscriptionId: true },
  });
  const ids = renewing.map((s) => s.stripeSubscriptionId!).filter((id) => !id.startsWith("test_sub_"));
  const card = await getPaymentProvider().completeCardSetup(setup.providerSetupId, ids, `card-setup-${setup.id}`);
  if (card) await recordCard(user.id, setup.id, card);
  return card;
}

/** The test mode's card page: its attempt (test mode only, owner only). */
export async function getTestCardSetup(user: { id: string }, setupId: string) {
  if (getPaymentProvider().name !== "test") throw notFound(CARD_SETUP_NOT_FOUND);
  const setup = await findOwnSetup(user, setupId);
  if (setup.provider !== "test") throw notFound(CARD_SETUP_NOT_FOUND);
  return { id: setup.id, status: setup.status };
}

/** A test card chosen on that page is saved as the card on file (renewals are charged to it). */
export async function saveTestCard(user: { id: string }, setupId: string, number: TestCardNumber) {
  const setup = await getTestCardSetup(user, setupId);
  if (setup.status !== "open" && setup.status !== "completed") throw new ServiceError(CARD_NOT_SAVED, 409);
  await recordCard(user.id, setup.id, testCard(number));
  return (await getCardOnFile(user.id))!;
}
