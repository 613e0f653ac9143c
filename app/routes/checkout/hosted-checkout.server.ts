import { data, redirect } from "react-router";
import { ServiceError } from "~/lib/errors.server.ts";
import type { PublicUser } from "~/services/auth/credentials.server.ts";
import { type CheckoutBuyer, type CheckoutItem, startCheckout } from "~/services/commerce/checkout.server.ts";

/**
 * The buy button without JavaScript (premium and the licence checkouts): on to the provider's
 * hosted page with a 303, or the reason it cannot start shown on the same page.
 */
export async function goToHostedCheckout(user: PublicUser, item: CheckoutItem, buyer: CheckoutBuyer = {}) {
  try {
    const { url } = await startCheckout(user, item, "hosted", buyer);
    if (!url) throw new ServiceError("The payment provider has no checkout page.", 502);
    return redirect(url, 303);
  } catch (error) {
    if (error instanceof ServiceError) return data({ formError: error.message }, { status: error.status });
    throw error;
  }
}
