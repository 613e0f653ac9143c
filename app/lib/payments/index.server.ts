import { getEnv } from "../env.server.ts";
import { appUrl } from "../mail.server.ts";
import type { PaymentProvider } from "./provider.server.ts";
import { createStripeProvider } from "./stripe.server.ts";
import { createTestModeProvider } from "./test-mode.server.ts";

export type { PaymentEvent, PaymentProvider, StartCheckoutInput, StartCheckoutResult } from "./provider.server.ts";

let provider: PaymentProvider | undefined;

/** Stripe when STRIPE_SECRET_KEY is set, else the local test mode. Made once per process. */
export function getPaymentProvider(): PaymentProvider {
  provider ??= createConfiguredProvider();
  return provider;
}

/** Tests swap the provider (a failing one, a counting one) and put the real one back with null. */
export function setPaymentProvider(next: PaymentProvider | null) {
  provider = next ?? undefined;
}

/** Whether Stripe is configured (the CSP lets Stripe.js and Stripe's pages in only then). */
export function isStripeConfigured() {
  return Boolean(getEnv().STRIPE_SECRET_KEY);
}

function createConfiguredProvider(): PaymentProvider {
  const env = getEnv();
  if (!env.STRIPE_SECRET_KEY) return createTestModeProvider(appUrl);
  // env.server.ts refuses to start with a secret key and no webhook secret.
  return createStripeProvider({
    secretKey: env.STRIPE_SECRET_KEY,
    publishableKey: env.STRIPE_PUBLISHABLE_KEY ?? null,
    webhookSecret: env.STRIPE_WEBHOOK_SECRET!,
    automaticTax: env.STRIPE_TAX,
  });
}
