import crypto from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { formatLongDate } from "~/lib/format.ts";
import * as billingPage from "~/routes/account/billing.tsx";
import * as unsubscribePage from "~/routes/public/unsubscribe.tsx";
import { runBillingSweep } from "~/services/commerce/billing-sweep.server.ts";
import { findLink } from "../helpers/mail-parse.ts";
import { createPaidSubscription, createUser, sessionCookieFor } from "../helpers/factories.ts";
import { callRoute } from "../helpers/route.ts";
import { DAY_MS, useMailCapture } from "./account-helpers.ts";

// What a member is told about a term that renews by itself, in the local test mode (the
// default provider): the notices 30 and 7 days before the renewal, the receipt of the renewal,
// and the confirmation of each change of the renewal switch on /billing. The sweep runs as the
// hourly job runs it, at the time given.

const mail = useMailCapture();

/** A member's premium term sold in test mode, renewing by itself unless told otherwise. */
async function renewingTerm(options: { endDate: Date; autoRenew?: boolean; wantsReminders?: boolean }) {
  const user = await createUser();
  if (options.wantsReminders === false) await prisma.notificationPreferences.update({ where: { userId: user.id }, data: { emailRenewalReminders: false } });
  const { subscription } = await createPaidSubscription(user.id, { endDate: options.endDate });
  await prisma.subscription.update({
    where: { id: subscription.id },
    data: { stripeSubscriptionId: `test_sub_${crypto.randomUUID()}`, autoRenew: options.autoRenew ?? true },
  });
  return { user, subscription };
}

const noticesTo = (email: string) => mail.to(email).filter((m) => / renews on /.test(m.subject));
const settle = () => new Promise((r) => setTimeout(r, 100));
const at = (date: Date, days: number) => new Date(date.getTime() + days * DAY_MS);

describe("notices of a coming renewal", () => {
  it("go 30 and then 7 days before it, each once per term even with two sweeps at once, with the date, the price and the way out", async () => {
    const endDate = at(new Date(), 40);
    const { user, subscription } = await renewingTerm({ endDate });

    await runBillingSweep(at(endDate, -31));
    await settle();
    expect(noticesTo(user.email)).toHaveLength(0);

    await Promise.all([runBillingSweep(at(endDate, -29)), runBillingSweep(at(endDate, -29))]);
    await runBillingSweep(at(endDate, -20));
    await settle();
    expect(noticesTo(user.email)).toHaveLength(1);
    const first = noticesTo(user.email)[0]!;
    expect(first.subject).toBe(`Your Premium access (all animations) renews on ${formatLongDate(endDate)}`);
    expect(first.text).toContain("Your subscription renews in 30 days");
    expect(first.text).toContain("we will charge $99.00 to your payment method on file");
    expect(first.text).toContain("http://localhost:3000/billing");
    expect(first.raw).toMatch(/^List-Unsubscribe:\s+<http:\/\/localhost:3000\/unsubscribe\?/m);

    await Promise.all([runBillingSweep(at(endDate, -6)), runBillingSweep(at(endDate, -6))]);
    await runBillingSweep(at(endDate, -1));
    await vi.waitFor(() => expect(noticesTo(user.email)).toHaveLength(2));
    expect(noticesTo(user.email)[1]!.text).toContain("Your subscription renews in 7 days");

    // The renewal itself: a receipt of its own, and the next term is announced again.
    await runBillingSweep(at(endDate, 0.01));
    const renewed = await prisma.subscription.findUniqueOrThrow({ where: { id: subscription.id } });
    const nextEnd = renewed.endDate!;
    await vi.waitFor(() => expect(mail.to(user.email).filter((m) => m.subject.includes("renewal receipt"))).toHaveLength(1));
    const receipt = mail.to(user.email).find((m) => m.subject.includes("renewal receipt"))!;
    expect(receipt.subject).toBe("Your Medanim renewal receipt: Premium yearly subscription");
    expect(receipt.text).toContain(`We charged $99.00, and your access now runs until ${formatLongDate(nextEnd)}`);
    const payment = await prisma.payment.findFirstOrThrow({ where: { subscriptionId: subscription.id, description: { startsWith: "Renewal" } } });
    expect(receipt.text).toContain(`/billing/receipts/${payment.id}`);

    await runBillingSweep(at(nextEnd, -29));
    await vi.waitFor(() => expect(noticesTo(user.email)).toHaveLength(3));
    expect(noticesTo(user.email)[2]!.subject).toContain(formatLongDate(nextEnd));
  });

  it("go only to owners who want renewal reminders; a term first seen a week out gets the 7-day notice alone", async () => {
    const endDate = at(new Date(), 5);
    const optedOut = await renewingTerm({ endDate, wantsReminders: false });
    const late = await renewingTerm({ endDate });
    const ending = await renewingTerm({ endDate, autoRenew: false });

    await runBillingSweep();
    await settle();
    expect(noticesTo(optedOut.user.email)).toHaveLength(0);
    expect(noticesTo(late.user.email).map((m) => m.text.includes("renews in 7 days"))).toEqual([true]);
    // A term that will not renew keeps its own reminder of the end, and no notice of a renewal.
    expect(noticesTo(ending.user.email)).toHaveLength(0);
    expect(mail.to(ending.user.email).map((m) => m.subject)).toEqual([`Your Premium access (all animations) ends on ${formatLongDate(endDate)}`]);
  });

  it("carry an unsubscribe link that turns renewal reminders off, without signing in", async () => {
    const endDate = at(new Date(), 25);
    const { user } = await renewingTerm({ endDate });
    await runBillingSweep();
    await vi.waitFor(() => expect(noticesTo(user.email)).toHaveLength(1));
    const link = new URL(findLink(noticesTo(user.email)[0]!.text, "/unsubscribe?")!);

    const asked = await callRoute(unsubscribePage, `${link.pathname}${link.search}`);
    expect(asked.body).toMatchObject({ state: "ask", label: "Renewal reminder" });
    const done = await callRoute(unsubscribePage, `${link.pathname}${link.search}`, { form: {} });
    expect(done.body).toMatchObject({ state: "done", email: user.email });
    expect((await prisma.notificationPreferences.findUniqueOrThrow({ where: { userId: user.id } })).emailRenewalReminders).toBe(false);

    await runBillingSweep(at(endDate, -3));
    await settle();
    expect(noticesTo(user.email)).toHaveLength(1);
  });
});

describe("the renewal switch on /billing", () => {
  const toggle = (cookie: string, subscriptionId: string, intent: "auto-renew-off" | "auto-renew-on") =>
    callRoute(billingPage, "/billing", { cookie, form: { intent, subscriptionId } });

  it("confirms turning auto-renew off and back on by e-mail, once per change", async () => {
    const endDate = at(new Date(), 200);
    const { user, subscription } = await renewingTerm({ endDate });
    const cookie = await sessionCookieFor(user.id);
    const confirmations = () => mail.to(user.email).filter((m) => m.subject.startsWith("Auto-renew is"));

    expect((await toggle(cookie, subscription.id, "auto-renew-off")).status).toBe(302);
    await toggle(cookie, subscription.id, "auto-renew-off");
    await vi.waitFor(() => expect(confirmations()).toHaveLength(1));
    const off = confirmations()[0]!;
    expect(off.subject).toBe(`Auto-renew is off: Premium access (all animations) ends on ${formatLongDate(endDate)}`);
    expect(off.text).toContain(`It will not renew and nothing more will be charged for it: your access continues until ${formatLongDate(endDate)}.`);

    await toggle(cookie, subscription.id, "auto-renew-on");
    await vi.waitFor(() => expect(confirmations()).toHaveLength(2));
    const on = confirmations()[1]!;
    expect(on.subject).toBe(`Auto-renew is on: Premium access (all animations) renews on ${formatLongDate(endDate)}`);
    expect(on.text).toContain(`It renews on ${formatLongDate(endDate)} at $99.00 for one more year`);
    await settle();
    expect(confirmations()).toHaveLength(2);
  });
});
