import { afterEach, describe, expect, it, vi } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { setPaymentProvider } from "~/lib/payments/index.server.ts";
import { useFakeProvider } from "../helpers/payments.ts";
import { getToast } from "~/lib/toast.server.ts";
import * as billingPage from "~/routes/account/billing.tsx";
import {
  CANCEL_PROVIDER_FAILED,
  cancelSubscription,
  expireEndedSubscriptions,
  reactivateSubscription,
  setAutoRenew,
} from "~/services/commerce/subscriptions.server.ts";
import { runBillingSweep } from "~/services/commerce/billing-sweep.server.ts";
import { sendRenewalReminders } from "~/services/commerce/renewal-reminders.server.ts";
import { createPaidSubscription, createUser, sessionCookieFor } from "../helpers/factories.ts";
import { callRoute } from "../helpers/route.ts";
import { DAY_MS, useMailCapture } from "./account-helpers.ts";

const mail = useMailCapture();

type Call = { method: string; args: unknown[] };

/** A provider that records what it is asked; `fail` makes its writes throw. */
function countingProvider(name: "stripe" | "test", options: { fail?: boolean } = {}) {
  const calls: Call[] = [];
  const write =
    (method: string) =>
    async (...args: unknown[]) => {
      calls.push({ method, args });
      if (options.fail) throw new Error("provider unavailable");
    };
  useFakeProvider({
    name,
    setAutoRenew: write("setAutoRenew"),
    cancelNow: write("cancelNow"),
    billingPortalUrl: async (...args) => {
      calls.push({ method: "billingPortalUrl", args });
      return "https://billing.stripe.com/p/session/test_123";
    },
  });
  return calls;
}

afterEach(() => setPaymentProvider(null));

async function stripeSubscription(userId: string, extra: { endDate?: Date; autoRenew?: boolean; status?: "active" | "canceled" | "expired" } = {}) {
  const { subscription, payment } = await createPaidSubscription(userId, { endDate: extra.endDate, status: extra.status });
  const stripeSubscriptionId = `sub_${subscription.id.slice(0, 8)}`;
  await prisma.subscription.update({ where: { id: subscription.id }, data: { stripeSubscriptionId, autoRenew: extra.autoRenew ?? true } });
  await prisma.user.update({ where: { id: userId }, data: { accountType: "premium" } });
  return { subscription: { ...subscription, stripeSubscriptionId }, payment };
}

const row = (id: string) => prisma.subscription.findUniqueOrThrow({ where: { id } });
const accountType = async (userId: string) => (await prisma.user.findUniqueOrThrow({ where: { id: userId } })).accountType;

async function toastOf(res: { headers: Headers }) {
  const cookie = res.headers.get("Set-Cookie")!.split(";")[0]!;
  return (await getToast(new Request("http://localhost/", { headers: { Cookie: cookie } }))).toast;
}

describe("setAutoRenew", () => {
  it("tells Stripe with the right flag, updates the row, and a second call changes nothing", async () => {
    const calls = countingProvider("stripe");
    const user = await createUser();
    const { subscription } = await stripeSubscription(user.id);
    await prisma.subscription.update({ where: { id: subscription.id }, data: { renewalReminderAt: new Date() } });

    const off = await setAutoRenew(user, subscription.id, false);
    expect(off).toMatchObject({ id: subscription.id, autoRenew: false });
    expect(await setAutoRenew(user, subscription.id, false)).toMatchObject({ autoRenew: false });
    expect(calls).toEqual([{ method: "setAutoRenew", args: [subscription.stripeSubscriptionId, false, expect.stringContaining(subscription.id)] }]);
    expect((await row(subscription.id)).autoRenew).toBe(false);

    await setAutoRenew(user, subscription.id, true);
    await setAutoRenew(user, subscription.id, true);
    expect(calls.map((c) => c.args[1])).toEqual([false, true]);
    // A different change is a different idempotency key at the provider.
    expect(calls[1]!.args[2]).not.toBe(calls[0]!.args[2]);
    const on = await row(subscription.id);
    expect(on.autoRenew).toBe(true);
    expect(on.renewalReminderAt).toBeNull();
  });

  it("a subscription without a provider subscription, or a test-mode one, changes in our row alone", async () => {
    const calls = countingProvider("stripe");
    const user = await createUser();
    const { subscription } = await createPaidSubscription(user.id);
    const { subscription: testMode } = await createPaidSubscription(user.id, { type: "individual" });
    await prisma.subscription.update({ where: { id: testMode.id }, data: { stripeSubscriptionId: `test_sub_${crypto.randomUUID()}` } });
    await setAutoRenew(user, subscription.id, false);
    await setAutoRenew(user, testMode.id, false);
    expect(calls).toEqual([]);
    expect((await row(subscription.id)).autoRenew).toBe(false);
    expect((await row(testMode.id)).autoRenew).toBe(false);
  });

  it("when the provider fails nothing changes and the member is told", async () => {
    countingProvider("stripe", { fail: true });
    const user = await createUser();
    const { subscription } = await stripeSubscription(user.id);
    await expect(setAutoRenew(user, subscription.id, false)).rejects.toMatchObject({ status: 502 });
    expect((await row(subscription.id)).autoRenew).toBe(true);
  });

  it("someone else's, an ended or a canceled subscription, or a bad id: 404", async () => {
    countingProvider("test");
    const [user, other] = await Promise.all([createUser(), createUser()]);
    const { subscription: theirs } = await createPaidSubscription(other.id);
    const { subscription: ended } = await createPaidSubscription(user.id, { endDate: new Date(Date.now() - DAY_MS) });
    const { subscription: canceled } = await createPaidSubscription(user.id, { status: "canceled" });
    for (const id of [theirs.id, ended.id, canceled.id, "not-a-uuid", crypto.randomUUID()]) {
      await expect(setAutoRenew(user, id, false)).rejects.toMatchObject({ status: 404, message: "Subscription not found" });
    }
    expect((await row(theirs.id)).autoRenew).toBe(true);
  });
});

describe("/billing renewal switch (route module)", () => {
  it("shows the renewal state, turns auto-renew off then back on with toasts", async () => {
    countingProvider("test");
    const user = await createUser();
    const { subscription } = await createPaidSubscription(user.id);
    const cookie = await sessionCookieFor(user.id);

    const page = await callRoute(billingPage, "/billing", { cookie });
    expect(page.body.subscriptions[0]).toMatchObject({ id: subscription.id, autoRenew: true });
    // Test mode has no billing portal: the button is not offered.
    expect(page.body.billingPortal).toBe(false);

    const off = await callRoute(billingPage, "/billing", { cookie, form: { intent: "auto-renew-off", subscriptionId: subscription.id } });
    expect(off.status).toBe(302);
    expect(off.location).toBe("/billing");
    expect(await toastOf(off)).toMatchObject({
      title: "Auto-renew turned off",
      description: expect.stringMatching(/^Your access continues until \w+ \d+, \d{4}\.$/),
    });
    expect((await callRoute(billingPage, "/billing", { cookie })).body.subscriptions[0].autoRenew).toBe(false);

    const on = await callRoute(billingPage, "/billing", { cookie, form: { intent: "auto-renew-on", subscriptionId: subscription.id } });
    expect(on.status).toBe(302);
    expect(await toastOf(on)).toMatchObject({ title: "Auto-renew turned back on" });
    expect((await row(subscription.id)).autoRenew).toBe(true);
  });

  it("someone else's subscription: 404 and nothing changes", async () => {
    const [user, other] = await Promise.all([createUser(), createUser()]);
    const { subscription } = await createPaidSubscription(other.id);
    const res = await callRoute(billingPage, "/billing", {
      cookie: await sessionCookieFor(user.id),
      form: { intent: "auto-renew-off", subscriptionId: subscription.id },
    });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe("Subscription not found");
    expect((await row(subscription.id)).autoRenew).toBe(true);
  });

  it("anonymous: sent to sign in; an unknown intent: 400", async () => {
    const anon = await callRoute(billingPage, "/billing", { form: { intent: "auto-renew-off", subscriptionId: crypto.randomUUID() } });
    expect(anon.status).toBe(302);
    expect(anon.location).toMatch(/^\/auth\?redirectTo=/);
    const user = await createUser();
    const bad = await callRoute(billingPage, "/billing", { cookie: await sessionCookieFor(user.id), form: { intent: "delete-everything" } });
    expect(bad.status).toBe(400);
  });

  it("with Stripe and a Stripe customer, Manage payment method opens the billing portal (303)", async () => {
    const calls = countingProvider("stripe");
    const user = await createUser({ stripeCustomerId: "cus_test123" });
    const cookie = await sessionCookieFor(user.id);
    expect((await callRoute(billingPage, "/billing", { cookie })).body.billingPortal).toBe(true);
    const res = await callRoute(billingPage, "/billing", { cookie, form: { intent: "manage-payment-method" } });
    expect(res.status).toBe(303);
    expect(res.location).toBe("https://billing.stripe.com/p/session/test_123");
    expect(calls).toEqual([{ method: "billingPortalUrl", args: ["cus_test123", expect.stringMatching(/\/billing$/)] }]);
  });
});

describe("admin cancel and reactivate", () => {
  it("cancel: access ends now, the provider subscription is cancelled, a second call changes nothing", async () => {
    const calls = countingProvider("stripe");
    const admin = await createUser({ role: "admin" });
    const user = await createUser();
    const { subscription } = await stripeSubscription(user.id);

    const first = await cancelSubscription({ id: admin.id, email: admin.email }, subscription.id);
    expect(first.status).toBe("canceled");
    expect(await accountType(user.id)).toBe("free");
    const second = await cancelSubscription({ id: admin.id, email: admin.email }, subscription.id);
    expect(second.status).toBe("canceled");
    expect(calls).toEqual([{ method: "cancelNow", args: [subscription.stripeSubscriptionId, expect.stringContaining(subscription.id)] }]);
  });

  it("cancel keeps premium while another subscription is active", async () => {
    countingProvider("test");
    const admin = await createUser({ role: "admin" });
    const user = await createUser();
    const { subscription } = await stripeSubscription(user.id);
    await createPaidSubscription(user.id, { type: "individual" });
    await cancelSubscription({ id: admin.id, email: admin.email }, subscription.id);
    expect(await accountType(user.id)).toBe("premium");
  });

  it("cancel: when the provider fails, nothing changes (the admin can retry)", async () => {
    countingProvider("stripe", { fail: true });
    const admin = await createUser({ role: "admin" });
    const user = await createUser();
    const { subscription } = await stripeSubscription(user.id);
    await expect(cancelSubscription({ id: admin.id, email: admin.email }, subscription.id)).rejects.toMatchObject({
      status: 502,
      message: CANCEL_PROVIDER_FAILED,
    });
    expect((await row(subscription.id)).status).toBe("active");
    expect(await accountType(user.id)).toBe("premium");
  });

  it("cancel: only active rows; unknown ids 404", async () => {
    countingProvider("test");
    const admin = await createUser({ role: "admin" });
    const user = await createUser();
    const { subscription } = await createPaidSubscription(user.id, { status: "expired" });
    await expect(cancelSubscription({ id: admin.id, email: admin.email }, subscription.id)).rejects.toMatchObject({ status: 409 });
    await expect(cancelSubscription({ id: admin.id, email: admin.email }, crypto.randomUUID())).rejects.toMatchObject({ status: 404 });
  });

  it("reactivate: active again until the original end date, no charge, twice-safe", async () => {
    const calls = countingProvider("stripe");
    const admin = await createUser({ role: "admin" });
    const user = await createUser();
    const { subscription } = await stripeSubscription(user.id);
    await cancelSubscription({ id: admin.id, email: admin.email }, subscription.id);
    calls.length = 0;

    const first = await reactivateSubscription({ id: admin.id, email: admin.email }, subscription.id);
    expect(first).toMatchObject({ status: "active", endDate: subscription.endDate });
    expect(await reactivateSubscription({ id: admin.id, email: admin.email }, subscription.id)).toMatchObject({
      status: "active",
      endDate: subscription.endDate,
    });
    expect(await accountType(user.id)).toBe("premium");
    expect(calls).toEqual([]);
    expect(await prisma.payment.count({ where: { userId: user.id } })).toBe(1);
    // The provider's subscription was ended by the cancel: this term does not renew.
    expect((await row(subscription.id)).autoRenew).toBe(false);
  });

  it("reactivate: a term that has ended cannot come back (409); only canceled rows", async () => {
    countingProvider("test");
    const admin = await createUser({ role: "admin" });
    const user = await createUser();
    const { subscription: ended } = await createPaidSubscription(user.id, { status: "canceled", endDate: new Date(Date.now() - DAY_MS) });
    await expect(reactivateSubscription({ id: admin.id, email: admin.email }, ended.id)).rejects.toMatchObject({
      status: 409,
      message: expect.stringMatching(/^This subscription ended on .+ and cannot be reactivated\./),
    });
    expect((await row(ended.id)).status).toBe("canceled");
    const { subscription: expired } = await createPaidSubscription(user.id, { status: "expired" });
    await expect(reactivateSubscription({ id: admin.id, email: admin.email }, expired.id)).rejects.toMatchObject({ status: 409 });
    expect(await accountType(user.id)).toBe("free");
  });
});

describe("expiry", () => {
  it("marks ended active subscriptions expired and syncs accountType per user", async () => {
    const now = new Date();
    const [alone, covered] = await Promise.all([createUser({ accountType: "premium" }), createUser({ accountType: "premium" })]);
    const { subscription: a } = await createPaidSubscription(alone.id, { endDate: new Date(now.getTime() - 1000) });
    const { subscription: b } = await createPaidSubscription(covered.id, { endDate: new Date(now.getTime() - 1000) });
    const { subscription: stillActive } = await createPaidSubscription(covered.id, { type: "individual" });

    const result = await expireEndedSubscriptions(now);
    expect(result.expired).toBeGreaterThanOrEqual(2);
    expect((await row(a.id)).status).toBe("expired");
    expect((await row(b.id)).status).toBe("expired");
    expect((await row(stillActive.id)).status).toBe("active");
    expect(await accountType(alone.id)).toBe("free");
    expect(await accountType(covered.id)).toBe("premium");
    // Twice: nothing left to do.
    expect((await expireEndedSubscriptions(now)).expired).toBe(0);
  });

  it("works through more rows than one batch", async () => {
    const now = new Date();
    const user = await createUser({ accountType: "premium" });
    const past = new Date(now.getTime() - DAY_MS);
    await prisma.subscription.createMany({
      data: Array.from({ length: 130 }, () => ({
        userId: user.id,
        type: "global" as const,
        status: "active" as const,
        startDate: past,
        endDate: past,
        price: 99,
      })),
    });
    const [one, two] = await Promise.all([expireEndedSubscriptions(now), expireEndedSubscriptions(now)]);
    expect(one.expired + two.expired).toBe(130);
    expect(await prisma.subscription.count({ where: { userId: user.id, status: "active" } })).toBe(0);
    expect(await accountType(user.id)).toBe("free");
  });
});

describe("renewal reminders", () => {
  const inDays = (days: number) => new Date(Date.now() + days * DAY_MS);
  const remindersTo = (email: string) => mail.to(email).filter((m) => /^Your .* ends on /.test(m.subject));
  const settle = () => new Promise((r) => setTimeout(r, 100));

  it("once per term for a subscription that will not renew, even with two sweeps at once", async () => {
    countingProvider("stripe");
    const user = await createUser();
    const { subscription } = await stripeSubscription(user.id, { endDate: inDays(5), autoRenew: false });

    const [one, two] = await Promise.all([sendRenewalReminders(), sendRenewalReminders()]);
    expect(one.sent + two.sent).toBe(1);
    await runBillingSweep();
    await settle();
    const mails = remindersTo(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain("Premium access (all animations)");
    expect(mails[0]!.text).toContain("will not renew automatically");
    expect(mails[0]!.text).toMatch(/\/billing/);
    expect((await row(subscription.id)).renewalReminderAt).not.toBeNull();
  });

  it("not for an auto-renewing Stripe subscription, not outside 7 days, not when the preference is off", async () => {
    countingProvider("stripe");
    const renewing = await createUser();
    await stripeSubscription(renewing.id, { endDate: inDays(5), autoRenew: true });
    const later = await createUser();
    await stripeSubscription(later.id, { endDate: inDays(10), autoRenew: false });
    const optedOut = await createUser();
    await prisma.notificationPreferences.update({ where: { userId: optedOut.id }, data: { emailRenewalReminders: false } });
    await stripeSubscription(optedOut.id, { endDate: inDays(3), autoRenew: false });

    await sendRenewalReminders();
    await settle();
    for (const u of [renewing, later, optedOut]) expect(remindersTo(u.email)).toHaveLength(0);
  });

  it("test-mode and seeded subscriptions never renew by themselves, so they are reminded", async () => {
    countingProvider("stripe");
    const testMode = await createUser();
    const { subscription } = await createPaidSubscription(testMode.id, { endDate: inDays(6) });
    await prisma.subscription.update({ where: { id: subscription.id }, data: { stripeSubscriptionId: `test_sub_${crypto.randomUUID()}` } });
    const seeded = await createUser();
    await createPaidSubscription(seeded.id, { endDate: inDays(6), type: "individual" });

    await sendRenewalReminders();
    await vi.waitFor(() => {
      expect(remindersTo(testMode.email)).toHaveLength(1);
      expect(remindersTo(seeded.email)).toHaveLength(1);
    });
  });

  it("turning auto-renew back on clears the claim: a later turn-off earns a new reminder", async () => {
    countingProvider("stripe");
    const user = await createUser();
    const { subscription } = await stripeSubscription(user.id, { endDate: inDays(4), autoRenew: false });
    await sendRenewalReminders();
    await setAutoRenew(user, subscription.id, true);
    await setAutoRenew(user, subscription.id, false);
    await sendRenewalReminders();
    await settle();
    expect(remindersTo(user.email)).toHaveLength(2);
  });

  it("a reminder that could not be sent is given back for the next sweep", async () => {
    countingProvider("stripe");
    const user = await createUser();
    const { subscription } = await stripeSubscription(user.id, { endDate: inDays(2), autoRenew: false });
    await prisma.emailTemplate.update({ where: { name: "renewal_reminder" }, data: { isActive: false } });
    try {
      expect((await sendRenewalReminders()).sent).toBe(0);
      expect((await row(subscription.id)).renewalReminderAt).toBeNull();
    } finally {
      await prisma.emailTemplate.update({ where: { name: "renewal_reminder" }, data: { isActive: true } });
    }
    expect((await sendRenewalReminders()).sent).toBe(1);
  });
});
