import { data } from "react-router";
import { ServiceError } from "~/lib/errors.server.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { finishCardReplacement } from "~/services/commerce/payment-methods.server.ts";
import type { Route } from "./+types/billing-card";

// /billing/card?setup={id}[&canceled=1]: where the provider's card page returns. The provider is
// asked what was saved; the member lands on /billing with a toast either way.

export async function loader({ request, url }: Route.LoaderArgs) {
  const user = await requireUser(request);
  try {
    const card = await finishCardReplacement(user, url.searchParams.get("setup") ?? "", { canceled: url.searchParams.has("canceled") });
    return redirectWithToast("/billing", {
      title: "Card replaced",
      description: `Renewals are now charged to the ${card.brand} card ending in ${card.last4}.`,
    });
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    if (error.status === 404) throw data({ message: error.message }, { status: 404 });
    return redirectWithToast("/billing", { title: "Card not replaced", description: error.message, type: "error" });
  }
}
