import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { renewTestModeSubscriptions, runBillingSweep } from "~/services/commerce/billing-sweep.server.ts";
import { cancelSubscription, reactivateSubscription } from "~/services/commerce/subscriptions.server.ts";
import { applyPaymentEvent } from "~/services/commerce/fulfilment.server.ts";
import { createPaidSubscription, createUser } from "../helpers/factories.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

async function testModeSubscription(options: { endDate: Date; autoRenew: boolean }) {
  const user = await createUser();
  const { subscription } = await createPaidSubscription(user.id, { endDate: options.endDate });
  const providerId = `test_sub_${crypto.randomUUID()}`;
  await prisma.subscription.update({ where: { id: subscription.id }, data: { stripeSubscriptionId: providerId, autoRenew: options.autoRenew } });
  await prisma.user.update({ where: { id: user.id }, data: { accountType: "premium" } });
  return { user, subscription, providerId };
}

describe("the billing sweep in test mode", () => {
  it("renews an auto-renewing test-mode subscription a year on with a second payment, once however often it runs", async () => {
    const endDate = new Date(Date.now() - 60_000);
    const { user, subscription } = await testModeSubscription({ endDate, autoRenew: true });

    await Promise.all([runBillingSweep(), runBillingSweep()]);
    await renewTestModeSubscriptions();

    const after = await prisma.subscription.findUniqueOrThrow({ where: { id: subscription.id } });
    expect(after.status).toBe("active");
    expect(after.endDate!.getTime()).toBe(endDate.getTime() + 365 * DAY_MS);
    const payments = await prisma.payment.findMany({ where: { subscriptionId: subscription.id }, orderBy: { createdAt: "asc" } });
    expect(payments).toHaveLength(2);
    expect(payments[1]).toMatchObject({ status: "completed", stripeInvoiceId: `test_in_${subscription.id}_${endDate.getTime()}` });
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).accountType).toBe("premium");
  });

  it("lets a term with auto-renew off end: expired, and the member back to free", async () => {
    const { user, subscription } = await testModeSubscription({ endDate: new Date(Date.now() - 60_000), autoRenew: false });
    const result = await runBillingSweep();
    expect(result.renewed).toBe(0);
    expect((await prisma.subscription.findUniqueOrThrow({ where: { id: subscription.id } })).status).toBe("expired");
    expect(await prisma.payment.count({ where: { subscriptionId: subscription.id } })).toBe(1);
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).accountType).toBe("free");
  });
});

describe("an admin cancel unlinks the provider subscription", () => {
  it("so its late 'deleted' webhook cannot end the term again after a reactivation", async () => {
    const admin = await createUser({ role: "admin" });
    const { subscription, providerId } = await testModeSubscription({ endDate: new Date(Date.now() + 100 * DAY_MS), autoRenew: true });
    await cancelSubscription({ id: admin.id, email: admin.email }, subscription.id);
    expect((await prisma.subscription.findUniqueOrThrow({ where: { id: subscription.id } })).stripeSubscriptionId).toBeNull();
    await reactivateSubscription({ id: admin.id, email: admin.email }, subscription.id);

    await applyPaymentEvent({ kind: "subscription.ended", eventId: `evt_${crypto.randomUUID()}`, providerSubscriptionId: providerId }, "test");
    expect((await prisma.subscription.findUniqueOrThrow({ where: { id: subscription.id } })).status).toBe("active");
  });
});
