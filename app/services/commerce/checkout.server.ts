import { prisma } from "~/lib/db.server.ts";
import { conflict, forbidden, notFound, ServiceError } from "~/lib/errors.server.ts";
import { formatLongDate } from "~/lib/format.ts";
import { appUrl } from "~/lib/mail.server.ts";
import { getPaymentProvider } from "~/lib/payments/index.server.ts";
import { ProviderDeclinedError } from "~/lib/payments/provider.server.ts";
import { checkoutIdFromTestId, testModeEvents } from "~/lib/payments/test-mode.server.ts";
import { activeLicenceWhere, getAccess, hasGlobalAccess, holdsLicence, type LicenceItem } from "../licensing/access.server.ts";
import { canManage, getMembership, seatsNeeded } from "../practices/practices.server.ts";
import { getSetting, settingNumber } from "../site/settings.server.ts";
import { INCLUDED_SEATS, MANAGERS_ONLY, PRACTICE_NOT_FOUND } from "~/validation/practices.ts";
import { getCurrentLicenceTerms } from "../licensing/licence-terms.server.ts";
import type { PublicUser } from "../auth/credentials.server.ts";
import { applyPaymentEvent, oneYearAfter } from "./fulfilment.server.ts";
import { findLicensableAnimation, findLicensableCategory, getPremiumPrice, mainCategoryNotSold } from "./offers.server.ts";
import { subscriptionSelect, toSubscriptionJson } from "./subscriptions.server.ts";
import { UUID_RE } from "~/validation/account.ts";

// Buying (docs/architecture.md, "Payments"): a CheckoutSession fixes the item and its price at the
// start, the provider takes the money, and fulfilment.server.ts grants the item when the
// provider says it is paid. Nothing here grants anything: it only starts, shows and confirms.

export type CheckoutItem = { type: "global" } | { type: "individual"; animation: string } | { type: "category"; category: string };
/** Who a licence is bought for: the buyer (as ever), or the practice the buyer manages (decision 030). */
export type CheckoutBuyer = { forPractice?: boolean };
export type CheckoutMode = "hosted" | "embedded";

/** The premium page's own words for someone who already has it. */
export const ALREADY_PREMIUM = "You already have premium access.";
export const ALREADY_LICENSED = "You already hold this license. Find it under My Animations.";
export const CHECKOUT_NOT_FOUND = "Checkout not found";
export const PAYMENT_NOT_FOUND = "Payment not found";
export const CANCELED_MESSAGE = "The payment was canceled. Nothing was charged.";

/** What each product is called on its checkout screen, its confirmation, its payment and receipt. */
export const productName = {
  global: () => "Premium yearly subscription",
  individual: (animationTitle: string) => `Individual license: ${animationTitle}`,
  category: (categoryName: string) => `Category license: ${categoryName}`,
};

type ResolvedItem = {
  type: "global" | "individual" | "category";
  animationId: string | null;
  categoryId: string | null;
  amount: number;
  description: string;
  practiceId?: string;
  seats?: number;
};

async function resolveItem(
  user: PublicUser,
  item: CheckoutItem,
  buyer: CheckoutBuyer & { held?: (licence: LicenceItem) => boolean } = {},
): Promise<ResolvedItem> {
  if (buyer.forPractice) {
    if (item.type === "global") throw new ServiceError(PREMIUM_IS_PERSONAL, 400);
    // What the buyer holds themselves does not matter: the practice's own licences are checked.
    const personal = await resolveItem(user, item, { held: () => false });
    return { ...personal, ...(await practiceTerms(user, personal)) };
  }
  const access = await getAccess(user);
  const held = buyer.held ?? ((licence: LicenceItem) => holdsLicence(access, licence));
  if (item.type === "global") {
    // Every item sold includes premium access, so any active subscription already gives it.
    if (hasGlobalAccess(access) || access.subscriptions.length > 0) throw conflict(ALREADY_PREMIUM);
    const price = await getPremiumPrice();
    return { type: "global", animationId: null, categoryId: null, amount: price.yearly, description: productName.global() };
  }
  if (item.type === "individual") {
    const animation = await findLicensableAnimation(item.animation);
    if (!animation) throw notFound("Animation not found");
    if (held({ type: "individual", animationId: animation.id })) throw conflict(ALREADY_LICENSED);
    return {
      type: "individual",
      animationId: animation.id,
      categoryId: null,
      // The price the animation's pages show, read now from the row (never from the client).
      amount: animation.price,
      description: productName.individual(animation.title),
    };
  }
  const found = await findLicensableCategory(item.category);
  if (!found) throw notFound("Category not found");
  if (found.main) throw notFound(mainCategoryNotSold(found.main.name));
  const category = found.category;
  if (held({ type: "category", categoryId: category.id })) throw conflict(ALREADY_LICENSED);
  return {
    type: "category",
    animationId: null,
    categoryId: category.id,
    amount: category.price,
    description: productName.category(category.name),
  };
}

export const PREMIUM_IS_PERSONAL = "Premium access is personal: buy a license for the practice instead.";

/**
 * A licence bought for the caller's practice: owners and managers only, not one it holds, with
 * a seat for everyone counted now (at least the included three), each further seat at the
 * settings' price.
 */
async function practiceTerms(user: PublicUser, personal: ResolvedItem) {
  const membership = await getMembership(user.id);
  if (!membership) throw notFound(PRACTICE_NOT_FOUND);
  if (!canManage(membership.role)) throw forbidden(MANAGERS_ONLY);
  const item =
    personal.type === "individual" ? { type: "individual" as const, id: personal.animationId! } : { type: "category" as const, id: personal.categoryId! };
  if (await practiceHolds(membership.practiceId, item)) throw conflict(ALREADY_LICENSED);
  const offer = await practiceOffer(membership.practiceId, personal.amount);
  return {
    practiceId: membership.practiceId,
    seats: offer.seats,
    amount: offer.amount,
    description: practiceProductName(personal.description, membership.practice.legalName, offer.seats),
  };
}

/** Whether the practice holds this very licence now (its checkout does not sell it twice). */
export async function practiceHolds(practiceId: string, item: { type: "individual" | "category"; id: string }) {
  const held = await prisma.subscription.findFirst({
    where: activeLicenceWhere(new Date(), {
      practiceId,
      ...(item.type === "individual" ? { type: "individual", animationId: item.id } : { type: "category", categoryId: item.id }),
    }),
    select: { id: true },
  });
  return held !== null;
}

/** What a practice pays for a licence of `price`: its seats, and the price with the extra seats. */
export async function practiceOffer(practiceId: string, price: number) {
  const [seats, seatPrice] = await Promise.all([seatsNeeded(practiceId, INCLUDED_SEATS), getSetting("practice_seat_price")]);
  const perSeat = settingNumber(seatPrice, 49);
  const extraSeats = seats - INCLUDED_SEATS;
  return { seats, extraSeats, perSeat, amount: Math.round((price + extraSeats * perSeat) * 100) / 100 };
}

/** A practice licence's name on its checkout, payment, invoice and receipt. */
export function practiceProductName(name: string, practiceName: string, seats: number) {
  return `${name}, for ${practiceName} (${seats} seats)`;
}

/**
 * The term a first payment of `amount` made now buys, and its renewal, as the checkout screen
 * states them: fulfilment grants one year from the payment, and at its end the renewal charges
 * the same amount again (Stripe: the subscription's yearly price made from the checkout's amount;
 * test mode: the billing sweep charges the subscription's price, which is that amount).
 */
export function termIfPaidNow(amount: number, now = new Date()) {
  const until = formatLongDate(oneYearAfter(now));
  return { until, renewal: { on: until, price: amount } };
}

const returnUrl = (checkoutId: string, canceled = false) => `${appUrl()}/checkout/return?checkout=${checkoutId}${canceled ? "&canceled=1" : ""}`;

/**
 * Starts one purchase attempt: the item resolved and priced now (a later price change does not
 * touch it), refused when already held (409), then handed to the provider. Returns where to pay:
 * a hosted page's `url`, or a `clientSecret` for the embedded form.
 */
export async function startCheckout(user: PublicUser, item: CheckoutItem, mode: CheckoutMode, buyer: CheckoutBuyer = {}) {
  const resolved = await resolveItem(user, item, buyer);
  const provider = getPaymentProvider();
  // A licence is bought under the terms in effect as the buyer goes on to pay (the version the
  // checkout screen names); premium is streaming, not a licence, and accepts none.
  const terms = resolved.type === "global" ? null : await getCurrentLicenceTerms();
  const checkout = await prisma.checkoutSession.create({
    data: {
      userId: user.id,
      type: resolved.type,
      animationId: resolved.animationId,
      categoryId: resolved.categoryId,
      amount: resolved.amount,
      description: resolved.description,
      provider: provider.name,
      licenceTermsVersion: terms?.version ?? null,
      practiceId: resolved.practiceId ?? null,
      seats: resolved.seats ?? 1,
    },
    select: { id: true },
  });
  const stored = await prisma.user.findUniqueOrThrow({
    where: { id: user.id },
    select: { stripeCustomerId: true, billingDetails: { select: { country: true, address: true } } },
  });
  // Who the invoice will be made out to is where the buyer is taxed (Stripe Tax reads it).
  const invoiced = resolved.practiceId
    ? await prisma.practice.findUnique({ where: { id: resolved.practiceId }, select: { country: true, address: true } })
    : stored.billingDetails;
  let started;
  try {
    started = await provider.startCheckout(
      {
        checkoutId: checkout.id,
        customer: { userId: user.id, email: user.email, name: `${user.firstName} ${user.lastName}`.trim(), providerCustomerId: stored.stripeCustomerId },
        item: { name: resolved.description, description: resolved.description, amountCents: Math.round(resolved.amount * 100), currency: "usd" },
        metadata: {
          checkoutId: checkout.id,
          userId: user.id,
          type: resolved.type,
          ...(resolved.animationId ? { animationId: resolved.animationId } : {}),
          ...(resolved.categoryId ? { categoryId: resolved.categoryId } : {}),
          ...(resolved.practiceId ? { practiceId: resolved.practiceId, seats: String(resolved.seats) } : {}),
        },
        taxLocation: invoiced,
        mode,
        successUrl: returnUrl(checkout.id),
        cancelUrl: returnUrl(checkout.id, true),
      },
      checkout.id,
    );
  } catch (error) {
    const message = error instanceof Error && error.message ? error.message : "The payment provider could not start the checkout.";
    await prisma.checkoutSession.update({ where: { id: checkout.id }, data: { status: "declined", failureMessage: message } });
    throw new ServiceError(message, error instanceof ProviderDeclinedError ? 402 : 502);
  }
  await prisma.checkoutSession.update({ where: { id: checkout.id }, data: { providerSessionId: started.providerSessionId } });
  if (started.providerCustomerId && started.providerCustomerId !== stored.stripeCustomerId) {
    await prisma.user.update({ where: { id: user.id }, data: { stripeCustomerId: started.providerCustomerId } });
  }
  return {
    checkoutId: checkout.id,
    provider: provider.name,
    licenseTermsVersion: terms?.version ?? null,
    ...(started.url ? { url: started.url } : {}),
    ...(started.clientSecret ? { clientSecret: started.clientSecret } : {}),
  };
}

async function findOwnCheckout(user: PublicUser, checkoutId: string) {
  const checkout = UUID_RE.test(checkoutId)
    ? await prisma.checkoutSession.findUnique({
        where: { id: checkoutId },
        select: {
          id: true,
          userId: true,
          type: true,
          animationId: true,
          categoryId: true,
          amount: true,
          description: true,
          provider: true,
          status: true,
          failureMessage: true,
          subscriptionId: true,
          animation: { select: { id: true, slug: true, title: true } },
          // The term fulfilment granted and its first payment, whose receipt the confirmation links.
          subscription: { select: { endDate: true, payments: { orderBy: { createdAt: "asc" }, take: 1, select: { id: true } } } },
        },
      })
    : null;
  // Someone else's checkout is answered like a missing one.
  if (!checkout || checkout.userId !== user.id) throw notFound(CHECKOUT_NOT_FOUND);
  return { ...checkout, amount: Number(checkout.amount) };
}

/** The test-mode hosted page's data: the item and amount (test mode only, owner only). */
export async function getTestCheckout(user: PublicUser, checkoutId: string) {
  if (getPaymentProvider().name !== "test") throw notFound(CHECKOUT_NOT_FOUND);
  const checkout = await findOwnCheckout(user, checkoutId);
  if (checkout.provider !== "test") throw notFound(CHECKOUT_NOT_FOUND);
  return { id: checkout.id, description: checkout.description, amount: checkout.amount, status: checkout.status };
}

/** A test-mode button: Pay or Decline, applied through the same fulfilment as a webhook. */
export async function payTestCheckout(user: PublicUser, checkoutId: string, outcome: "pay" | "decline") {
  const checkout = await getTestCheckout(user, checkoutId);
  // A paid checkout stays paid: a late Decline (another tab) must not report a failure.
  const effective = checkout.status === "completed" ? "pay" : outcome;
  if (checkout.status !== "declined" || effective === "pay") {
    for (const event of testModeEvents({ id: checkout.id, userId: user.id, amountCents: Math.round(checkout.amount * 100) }, effective)) {
      await applyPaymentEvent(event, "test");
    }
  }
  return getCheckoutResult(user, checkoutId);
}

export type CheckoutResult =
  | {
      status: "paid";
      checkoutId: string;
      type: "global" | "individual" | "category";
      description: string;
      amount: number;
      nextPath: string;
      animationId: string | null;
      endDate: Date | null;
      paymentId: string | null;
    }
  | { status: "failed"; checkoutId: string; description: string; amount: number; message: string }
  | { status: "pending"; checkoutId: string; description: string; amount: number };

/** What the return page shows: paid, failed (declined or canceled, nothing granted) or still confirming. */
export async function getCheckoutResult(user: PublicUser, checkoutId: string, options: { canceled?: boolean } = {}): Promise<CheckoutResult> {
  const checkout = await findOwnCheckout(user, checkoutId);
  const base = { checkoutId: checkout.id, description: checkout.description, amount: checkout.amount };
  if (checkout.status === "completed") {
    const nextPath =
      checkout.type === "global" ? "/" : checkout.type === "individual" && checkout.animationId ? `/watch/${checkout.animationId}` : "/my-animations";
    return {
      ...base,
      status: "paid",
      type: checkout.type,
      nextPath,
      animationId: checkout.animationId,
      endDate: checkout.subscription?.endDate ?? null,
      paymentId: checkout.subscription?.payments[0]?.id ?? null,
    };
  }
  if (checkout.status === "declined") return { ...base, status: "failed", message: checkout.failureMessage ?? "The payment was declined." };
  if (checkout.status === "expired" || options.canceled) return { ...base, status: "failed", message: checkout.failureMessage ?? CANCELED_MESSAGE };
  return { ...base, status: "pending" };
}

/**
 * POST /api/payments/success: the client says it paid; the provider is asked (never the
 * client), its events are applied like a webhook's, and the subscription is returned. A refused
 * payment answers 402 with the provider's message; someone else's (or an unknown) payment 404.
 */
export async function confirmClientPayment(user: PublicUser, paymentIntentId: string) {
  const events = await getPaymentProvider().confirmPayment(paymentIntentId);
  const checkoutIds = new Set(events.map((e) => ("checkoutId" in e ? e.checkoutId : null)).filter((id): id is string => Boolean(id)));
  const testCheckoutId = checkoutIdFromTestId(paymentIntentId);
  if (testCheckoutId) checkoutIds.add(testCheckoutId);
  if (events.length === 0 || checkoutIds.size === 0) throw notFound(PAYMENT_NOT_FOUND);
  const owned = await prisma.checkoutSession.count({ where: { id: { in: [...checkoutIds].filter((id) => UUID_RE.test(id)) }, userId: user.id } });
  if (owned !== checkoutIds.size) throw notFound(PAYMENT_NOT_FOUND);

  for (const event of events) await applyPaymentEvent(event, getPaymentProvider().name);

  const failed = events.find((e) => e.kind === "payment.failed");
  if (failed) throw new ServiceError(failed.message, 402);
  const checkout = await prisma.checkoutSession.findFirst({
    where: { id: { in: [...checkoutIds] }, status: "completed", subscriptionId: { not: null } },
    select: { type: true, subscription: { select: subscriptionSelect } },
  });
  if (!checkout?.subscription) throw new ServiceError("The payment is still being confirmed. Please reload in a moment.", 409);
  return {
    message: checkout.type === "global" ? "Welcome to Premium!" : "Your license is active.",
    subscription: toSubscriptionJson(checkout.subscription),
  };
}
