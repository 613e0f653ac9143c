import { appUrl } from "../mail.server.ts";
import type { PaymentProvider } from "./provider.server.ts";
import { createTestModeProvider } from "./test-mode.server.ts";

export type { PaymentEvent, PaymentProvider, StartCheckoutInput, StartCheckoutResult } from "./provider.server.ts";

let provider: PaymentProvider | undefined;

/** Stripe when STRIPE_SECRET_KEY is set, else the local test mode. Made once per process. */
export function getPaymentProvider(): PaymentProvider {
  provider ??= createTestModeProvider(appUrl);
  return provider;
}

/** Tests swap the provider (a failing one, a counting one) and put the real one back with null. */
export function setPaymentProvider(next: PaymentProvider | null) {
  provider = next ?? undefined;
}
