import { data, redirect, useNavigation } from "react-router";
import { Form } from "~/components/ui/form.tsx";
import { AccountPage } from "~/components/account/account-screen.tsx";
import { StatCard } from "~/components/ui/stat-card.tsx";
import { GeneralErrorBoundary } from "~/components/error-boundary.tsx";
import { ButtonLink } from "~/components/ui/button.tsx";
import { EmptyState } from "~/components/ui/empty-state.tsx";
import { Section } from "~/components/ui/section.tsx";
import { SubmitButton } from "~/components/ui/submit-button.tsx";
import { TextLink } from "~/components/ui/text-link.tsx";
import { ServiceError } from "~/lib/errors.server.ts";
import { formatCount, formatDate, formatFileSize, formatLongDate, formatMoney } from "~/lib/format.ts";
import { logger } from "~/lib/logger.server.ts";
import { appUrl } from "~/lib/mail.server.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { getTotalSpent, listPaymentsWithRefunds } from "~/services/commerce/payments.server.ts";
import { getCardOnFile, startCardReplacement } from "~/services/commerce/payment-methods.server.ts";
import { REFUND_WINDOW_DAYS } from "~/services/commerce/refunds.server.ts";
import { parseWithZod } from "@conform-to/zod/v4";
import { BillingDetailsSection, InvoicesSection } from "~/components/account/invoices-section.tsx";
import { formError } from "~/lib/form.server.ts";
import { getBillingDetails, listInvoices, saveBillingDetails } from "~/services/commerce/invoices.server.ts";
import { downloadTotals } from "~/services/media/package-delivery.server.ts";
import { BillingDetailsSchema } from "~/validation/invoicing.ts";
import {
  getBillingPortalUrl,
  hasBillingPortal,
  listActiveSubscriptions,
  listEndedAfterFailedPayments,
  listPracticeSubscriptions,
  setAutoRenew,
} from "~/services/commerce/subscriptions.server.ts";
import { NOINDEX } from "~/lib/seo.ts";
import { canManage, getMembership } from "~/services/practices/practices.server.ts";
import type { Route } from "./+types/billing";
import { readFormData } from "~/lib/form.server.ts";

export const meta: Route.MetaFunction = () => [{ title: "Billing | Medanim" }, NOINDEX];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const now = new Date();
  const membership = await getMembership(user.id);
  // The practice's licences for its owners and managers (decision 030); viewers see no billing.
  const practice = membership && canManage(membership.role) ? membership.practice : null;
  const [subscriptions, endedUnpaid, card, payments, totalSpent, billingPortal, invoices, billingDetails, practiceSubscriptions] = await Promise.all([
    listActiveSubscriptions(user.id, now),
    listEndedAfterFailedPayments(user.id),
    getCardOnFile(user.id),
    listPaymentsWithRefunds(user.id),
    getTotalSpent(user.id),
    hasBillingPortal(user.id),
    listInvoices(user.id),
    getBillingDetails(user.id),
    practice ? listPracticeSubscriptions(practice.id, now) : Promise.resolve([]),
  ]);
  const windowStart = now.getTime() - REFUND_WINDOW_DAYS * 24 * 60 * 60 * 1000;
  const taken = await downloadTotals([...subscriptions, ...practiceSubscriptions].map((s) => s.id));
  const withDownloads = <S extends { id: string }>(s: S) => ({ ...s, downloads: taken.get(s.id) ?? null });
  return {
    subscriptions: subscriptions.map(withDownloads),
    endedUnpaid,
    card,
    payments: payments.map((p) => ({ ...p, inRefundWindow: new Date(p.createdAt).getTime() >= windowStart })),
    totalSpent,
    billingPortal,
    invoices,
    billingDetails,
    practice: practice && { name: practice.legalName, subscriptions: practiceSubscriptions.map(withDownloads) },
  };
}

const AUTO_RENEW_INTENTS: Record<string, boolean> = { "auto-renew-off": false, "auto-renew-on": true };

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const formData = await readFormData(request);
  const intent = String(formData.get("intent") ?? "");

  if (intent === "billing-details") {
    const submission = parseWithZod(formData, { schema: BillingDetailsSchema });
    if (submission.status !== "success") return formError(submission);
    await saveBillingDetails(user, submission.value);
    return redirectWithToast("/billing#billing-details", { title: "Invoice details saved", description: "Invoices issued from now on are made out to them." });
  }

  if (intent === "replace-card") {
    try {
      return redirect((await startCardReplacement(user)).url, 303);
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      return redirectWithToast("/billing", { title: "Error", description: error.message, type: "error" });
    }
  }

  if (intent === "manage-payment-method") {
    const url = await getBillingPortalUrl(user.id, `${appUrl()}/billing`).catch((error: unknown) => {
      logger.error({ err: error }, "billing portal failed");
      return undefined;
    });
    if (url) return redirect(url, 303);
    return redirectWithToast("/billing", {
      title: "Error",
      description:
        url === null ? "There is no payment method to manage for this account." : "The payment provider's page could not be opened. Please try again.",
      type: "error",
    });
  }

  if (!(intent in AUTO_RENEW_INTENTS)) throw data({ message: "Unknown action" }, { status: 400 });
  const autoRenew = AUTO_RENEW_INTENTS[intent]!;
  try {
    const subscription = await setAutoRenew(user, String(formData.get("subscriptionId") ?? ""), autoRenew);
    return redirectWithToast(
      "/billing",
      autoRenew
        ? { title: "Auto-renew turned back on", description: `Your subscription renews on ${formatLongDate(subscription.endDate)}.` }
        : { title: "Auto-renew turned off", description: `Your access continues until ${formatLongDate(subscription.endDate)}.` },
    );
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    if (error.status === 404) throw data({ message: error.message }, { status: 404 });
    return redirectWithToast("/billing", { title: "Error", description: error.message, type: "error" });
  }
}

const STATUS_STYLE: Record<string, string> = {
  completed: "bg-green-100 text-green-800",
  pending: "bg-amber-100 text-amber-900",
  failed: "bg-red-100 text-red-800",
  refunded: "bg-slate-100 text-slate-700",
};

const TYPE_LABEL: Record<string, string> = { global: "Premium", category: "Category license", individual: "Individual license" };

export default function Billing({
  loaderData: { subscriptions, endedUnpaid, card, payments, totalSpent, billingPortal, invoices, billingDetails, practice },
  actionData,
}: Route.ComponentProps) {
  // Several cards share the same intents: only the card whose form is submitting shows it.
  const navigation = useNavigation();
  const togglingId = navigation.state === "submitting" ? navigation.formData?.get("subscriptionId") : null;
  return (
    <AccountPage title="Billing" wide>
      <dl className="mt-6 grid gap-4 sm:grid-cols-3">
        <StatCard label="Total Spent" value={formatMoney(totalSpent)} hint="Completed payments" />
        <StatCard
          label="Active Subscriptions"
          value={subscriptions.length + (practice?.subscriptions.length ?? 0)}
          hint={practice?.subscriptions.length ? `${practice.subscriptions.length} of the practice` : undefined}
        />
        <StatCard label="Payments" value={payments.length} />
      </dl>

      <Section
        id="active-subscriptions"
        title="Active Subscriptions"
        className="mt-10"
        action={
          billingPortal ? (
            // The portal needs a fresh session URL from the provider: a POST, then a 303 to it.
            <Form method="post">
              <SubmitButton name="intent" value="manage-payment-method" variant="secondary" size="sm" pendingText="Opening...">
                Manage payment method
              </SubmitButton>
            </Form>
          ) : undefined
        }
      >
        {subscriptions.length ? (
          <ul className="mt-4 grid gap-4 md:grid-cols-2">
            {subscriptions.map((s) => (
              <SubscriptionCard key={s.id} s={s} togglingId={togglingId} />
            ))}
          </ul>
        ) : (
          <EmptyState
            className="mt-4"
            title={practice?.subscriptions.length ? "No subscriptions of your own: the practice's licenses are below" : "No active subscriptions"}
            action={
              <ButtonLink to="/premium" size="sm">
                See Premium Plans
              </ButtonLink>
            }
          />
        )}
      </Section>

      {practice ? (
        <Section id="practice-billing" title={`Licenses of ${practice.name}`} className="mt-10">
          <p className="mt-2 text-sm text-slate-700">
            Every member of the practice uses these. Their invoices are made out to the practice&apos;s details, which you change on the{" "}
            <TextLink to="/practice#practice-details">practice page</TextLink>.
          </p>
          {practice.subscriptions.length ? (
            <ul className="mt-4 grid gap-4 md:grid-cols-2">
              {practice.subscriptions.map((s) => (
                <SubscriptionCard key={s.id} s={s} togglingId={togglingId} />
              ))}
            </ul>
          ) : (
            <EmptyState className="mt-4" title="The practice holds no active license yet." />
          )}
        </Section>
      ) : null}

      <Section
        id="card-on-file"
        title="Card on file"
        className="mt-10"
        action={
          // The provider's card page: a POST, then a 303 to it (test mode: its own test page).
          <Form method="post">
            <SubmitButton name="intent" value="replace-card" variant="secondary" size="sm" pendingText="Opening...">
              {card ? "Replace card" : "Add a card"}
            </SubmitButton>
          </Form>
        }
      >
        <p className="mt-4 text-sm text-slate-700">
          {card ? (
            <>
              <span className="font-medium capitalize">{card.brand}</span> ending in {card.last4} · expires {String(card.expMonth).padStart(2, "0")}/
              {card.expYear}
            </>
          ) : (
            "No card recorded yet. Renewals are charged to the card you paid with."
          )}
        </p>
      </Section>

      {endedUnpaid.length ? (
        <Section id="ended-unpaid" title="Ended after failed payments" className="mt-10">
          <ul className="mt-4 grid gap-2 text-sm">
            {endedUnpaid.map((s) => (
              <li key={s.id} className="rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-red-900">
                <span className="font-medium">{s.label}</span> · ended after failed payments on {formatDate(s.endDate)}
              </li>
            ))}
          </ul>
        </Section>
      ) : null}

      <Section id="payment-history" title="Payment History" className="mt-10">
        {payments.length ? (
          <div role="region" aria-label="Payments" tabIndex={0} className="relative mt-4 overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
            {/* On a phone each payment is a card (stack-table): six columns would push Status,
                Receipt and Refund past the right edge. */}
            <table className="stack-table w-full text-left text-sm">
              <thead className="bg-slate-50 text-slate-600">
                <tr>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Date
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Description
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Amount
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Status
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Receipt
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {payments.map((p) => (
                  <tr key={p.id} data-testid="payment-row">
                    <td data-label="Date" className="px-4 py-3 whitespace-nowrap">
                      {formatDate(p.createdAt)}
                    </td>
                    <td data-label="Description" className="px-4 py-3">
                      {p.description ?? (p.subscriptionType ? TYPE_LABEL[p.subscriptionType] : "Payment")}
                    </td>
                    <td data-label="Amount" className="px-4 py-3 whitespace-nowrap">
                      {formatMoney(p.amount)}
                    </td>
                    <td data-label="Status" className="px-4 py-3">
                      <span className={`rounded-full px-2.5 py-0.5 text-xs font-medium capitalize ${STATUS_STYLE[p.status] ?? ""}`}>{p.status}</span>
                    </td>
                    <td data-label="Receipt" className="px-4 py-3 whitespace-nowrap">
                      <TextLink to={`/billing/receipts/${p.id}`}>Receipt</TextLink>
                      {" · "}
                      <a href={`/billing/receipts/${p.id}/pdf`} download className="font-medium text-brand-700 hover:underline">
                        PDF<span className="sr-only"> receipt for {p.description ?? "this payment"}</span>
                      </a>
                    </td>
                    <td className="px-4 py-3 text-right">
                      {/* The refund action is offered only for completed payments; past the
                          30-day window it could only be refused, so it is not offered either. */}
                      {p.refundStatus ? (
                        <span className="text-xs font-medium text-slate-600">Refund {p.refundStatus}</span>
                      ) : p.status === "completed" && p.inRefundWindow ? (
                        <TextLink to={`/refund?payment=${p.id}`}>Request Refund</TextLink>
                      ) : p.status === "completed" ? (
                        <span className="text-xs text-slate-500">Refund window closed</span>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <EmptyState className="mt-4" title="No payments yet." />
        )}
      </Section>
      <InvoicesSection invoices={invoices} />
      <BillingDetailsSection details={billingDetails} lastResult={actionData?.result} />
    </AccountPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

type SubscriptionView = Route.ComponentProps["loaderData"]["subscriptions"][number] & { seats?: number };

/** One active subscription: its term, its documents and its renewal switch. */
function SubscriptionCard({ s, togglingId }: { s: SubscriptionView; togglingId: unknown }) {
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex items-start justify-between gap-3">
        <div>
          <p className="font-semibold">{s.label}</p>
          <p className="text-sm text-slate-600">{TYPE_LABEL[s.type]}</p>
        </div>
        <span className="rounded-full bg-green-100 px-2.5 py-0.5 text-xs font-medium text-green-800 capitalize">{s.status}</span>
      </div>
      <p className="mt-3 text-sm text-slate-600">
        {formatMoney(s.price)} / year · {formatDate(s.startDate)} – {formatDate(s.endDate)}
        {s.seats ? ` · ${s.seats} seats` : ""}
      </p>
      {s.type !== "global" ? (
        <p className="mt-2 text-sm">
          <a href={`/licences/${s.id}/certificate`} download className="font-medium text-brand-700 hover:underline">
            Certificate<span className="sr-only"> for {s.label}</span> (PDF)
          </a>
          {" · "}
          {/* The licence's embed sites, snippet and plays live on My Animations. */}
          <a href={`/my-animations#embed-${s.id}`} className="font-medium text-brand-700 hover:underline">
            Embed on your website<span className="sr-only"> ({s.label})</span>
          </a>
          {" · "}
          <a href={`/licences/${s.id}#patient-links`} className="font-medium text-brand-700 hover:underline">
            Patient links and viewing<span className="sr-only"> ({s.label})</span>
          </a>
        </p>
      ) : null}
      {s.downloads ? (
        <p className="mt-2 text-sm text-slate-600" data-testid="licence-downloads">
          Downloaded {s.downloads.count === 1 ? "once" : `${formatCount(s.downloads.count)} times`} ({formatFileSize(s.downloads.bytes)}), last on{" "}
          {formatDate(s.downloads.lastAt)}
        </p>
      ) : null}
      <div className="mt-4 flex flex-wrap items-center justify-between gap-3 border-t border-slate-100 pt-4">
        <p className="text-sm" data-testid="renewal-state">
          {s.paymentRetryAt ? (
            <>
              <span className="font-medium text-red-800">Payment failed — we&apos;ll retry on {formatDate(s.paymentRetryAt)}</span>
              <span className="text-slate-600"> · access continues until then</span>
            </>
          ) : !s.renewable ? (
            <>
              <span className="font-medium text-slate-800">Does not renew</span>
              <span className="text-slate-600"> · access ends on {formatDate(s.endDate)}</span>
            </>
          ) : s.autoRenew ? (
            <>
              <span className="font-medium text-green-800">Auto-renew is on</span>
              <span className="text-slate-600"> · renews on {formatDate(s.endDate)}</span>
            </>
          ) : (
            <>
              <span className="font-medium text-amber-900">Auto-renew is off</span>
              <span className="text-slate-600"> · access ends on {formatDate(s.endDate)}</span>
            </>
          )}
        </p>
        {s.renewable ? (
          <Form method="post">
            <input type="hidden" name="subscriptionId" value={s.id} />
            {s.autoRenew ? (
              <SubmitButton name="intent" value="auto-renew-off" variant="secondary" size="sm" pending={togglingId === s.id} pendingText="Turning off...">
                Turn off auto-renew
              </SubmitButton>
            ) : (
              <SubmitButton name="intent" value="auto-renew-on" size="sm" pending={togglingId === s.id} pendingText="Turning on...">
                Turn auto-renew back on
              </SubmitButton>
            )}
          </Form>
        ) : null}
      </div>
    </li>
  );
}
