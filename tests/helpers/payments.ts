import { setPaymentProvider } from "~/lib/payments/index.server.ts";
import type { PaymentProvider } from "~/lib/payments/provider.server.ts";

const unused = (method: string) => async (): Promise<never> => {
  throw new Error(`${method} is not used by this test`);
};

/**
 * Installs a provider made of the given methods (every other one throws "not used"), as the
 * app's payment provider until `setPaymentProvider(null)`.
 */
export function useFakeProvider(methods: Partial<PaymentProvider> & Pick<PaymentProvider, "name">) {
  const provider: PaymentProvider = {
    publishableKey: null,
    startCheckout: unused("startCheckout"),
    confirmPayment: async () => [],
    refund: unused("refund"),
    setAutoRenew: unused("setAutoRenew"),
    cancelNow: unused("cancelNow"),
    chargeRenewal: unused("chargeRenewal"),
    startCardSetup: unused("startCardSetup"),
    completeCardSetup: unused("completeCardSetup"),
    billingPortalUrl: async () => null,
    parseWebhook: unused("parseWebhook"),
    ...methods,
  };
  setPaymentProvider(provider);
  return provider;
}
