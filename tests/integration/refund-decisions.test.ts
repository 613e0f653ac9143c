import { afterEach, describe, expect, it, vi } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { setPaymentProvider } from "~/lib/payments/index.server.ts";
import { useFakeProvider } from "../helpers/payments.ts";
import { ADMIN_NOTES_REQUIRED, approveRefund, completeRefund, REFUND_PROVIDER_FAILED, rejectRefund } from "~/services/commerce/refunds.server.ts";
import { createPaidSubscription, createUser } from "../helpers/factories.ts";
import { useMailCapture } from "./account-helpers.ts";

const mail = useMailCapture();

type RefundAnswer = "succeeded" | "pending" | "fail";

/** A provider whose refund answers as told and records every call. */
function refundingProvider(answer: RefundAnswer, name: "stripe" | "test" = "stripe") {
  const calls: Array<{ paymentIntentId: string; key: string }> = [];
  useFakeProvider({
    name,
    async refund(paymentIntentId, key) {
      calls.push({ paymentIntentId, key });
      if (answer === "fail") throw new Error("Stripe is unavailable");
      return { refundId: `re_${calls.length}`, status: answer };
    },
    setAutoRenew: async () => {},
    cancelNow: async () => {},
  });
  return calls;
}

afterEach(() => setPaymentProvider(null));

/** A member with a paid premium subscription and a pending refund request for its payment. */
async function pendingRequest(options: { paymentIntent?: boolean; otherActive?: boolean } = {}) {
  const user = await createUser({ accountType: "premium" });
  const { subscription, payment } = await createPaidSubscription(user.id, { description: "Premium access, one year" });
  const paymentIntentId = options.paymentIntent === false ? null : `pi_${payment.id.replaceAll("-", "").slice(0, 20)}`;
  if (paymentIntentId) await prisma.payment.update({ where: { id: payment.id }, data: { stripePaymentIntentId: paymentIntentId } });
  if (options.otherActive) await createPaidSubscription(user.id, { type: "individual" });
  const request = await prisma.refundRequest.create({
    data: {
      userId: user.id,
      paymentId: payment.id,
      reason: "not-satisfied",
      description: "Not what I needed for my lectures.",
      contactEmail: `refund-${user.username}@example.com`,
      status: "pending",
    },
  });
  return { user, subscription, payment, paymentIntentId, request };
}

const state = async (ids: { requestId: string; paymentId: string; subscriptionId: string; userId: string }) => ({
  request: await prisma.refundRequest.findUniqueOrThrow({ where: { id: ids.requestId } }),
  payment: (await prisma.payment.findUniqueOrThrow({ where: { id: ids.paymentId } })).status,
  subscription: (await prisma.subscription.findUniqueOrThrow({ where: { id: ids.subscriptionId } })).status,
  accountType: (await prisma.user.findUniqueOrThrow({ where: { id: ids.userId } })).accountType,
});
const idsOf = (r: Awaited<ReturnType<typeof pendingRequest>>) => ({
  requestId: r.request.id,
  paymentId: r.payment.id,
  subscriptionId: r.subscription.id,
  userId: r.user.id,
});

const decisionMails = (to: string) => mail.to(to).filter((m) => m.subject.startsWith("Your refund request was"));

const actorOf = (admin: { id: string; email: string }) => ({ id: admin.id, email: admin.email });

describe("approveRefund", () => {
  it("provider confirms at once: processed, payment refunded, subscription canceled, premium lost, one mail", async () => {
    const calls = refundingProvider("succeeded", "test");
    const admin = await createUser({ role: "admin" });
    const r = await pendingRequest();

    const result = await approveRefund(actorOf(admin), r.request.id, "  Within the 30-day window.  ");
    expect(result).toMatchObject({ status: "processed", adminNotes: "Within the 30-day window.", processedById: admin.id });
    expect(calls).toEqual([{ paymentIntentId: r.paymentIntentId, key: `refund-${r.request.id}` }]);
    expect(await state(idsOf(r))).toMatchObject({ payment: "refunded", subscription: "canceled", accountType: "free" });

    await vi.waitFor(() => expect(decisionMails(r.request.contactEmail!)).toHaveLength(1));
    const text = decisionMails(r.request.contactEmail!)[0]!.text;
    expect(text).toContain("approved");
    expect(text).toContain("Premium access, one year");
    expect(text).toContain("$99");
    expect(text).toContain("Within the 30-day window.");
  });

  it("a second approval (or a rejection) of a decided request is a 409 and changes nothing", async () => {
    const calls = refundingProvider("succeeded");
    const admin = await createUser({ role: "admin" });
    const r = await pendingRequest();
    await approveRefund(actorOf(admin), r.request.id, "Approved.");
    await expect(approveRefund(actorOf(admin), r.request.id, "Again.")).rejects.toMatchObject({
      status: 409,
      message: "This refund request has already been processed.",
    });
    await expect(rejectRefund(actorOf(admin), r.request.id, "Too late.")).rejects.toMatchObject({ status: 409 });
    expect(calls).toHaveLength(1);
    expect((await state(idsOf(r))).request.adminNotes).toBe("Approved.");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(decisionMails(r.request.contactEmail!)).toHaveLength(1);
  });

  it("two approvals at once: one refund at the provider, one decision", async () => {
    const calls = refundingProvider("succeeded");
    const admin = await createUser({ role: "admin" });
    const r = await pendingRequest();
    const results = await Promise.allSettled([approveRefund(actorOf(admin), r.request.id, "A."), approveRefund(actorOf(admin), r.request.id, "B.")]);
    expect(results.filter((x) => x.status === "fulfilled")).toHaveLength(1);
    expect(results.find((x) => x.status === "rejected")).toMatchObject({ reason: { status: 409 } });
    expect(calls).toHaveLength(1);
    expect((await state(idsOf(r))).request.status).toBe("processed");
  });

  it("provider pending: the request stays approved until the refund is confirmed (charge.refunded → completeRefund)", async () => {
    refundingProvider("pending");
    const admin = await createUser({ role: "admin" });
    const r = await pendingRequest();
    expect(await approveRefund(actorOf(admin), r.request.id, "Approved, waiting for Stripe.")).toMatchObject({ status: "approved" });
    expect(await state(idsOf(r))).toMatchObject({ payment: "completed", subscription: "active", accountType: "premium" });

    await prisma.$transaction((tx) => completeRefund(tx, r.paymentIntentId!, new Date()));
    expect(await state(idsOf(r))).toMatchObject({ request: { status: "processed" }, payment: "refunded", subscription: "canceled", accountType: "free" });
  });

  it("provider failure: the request goes back to pending (Approve stays on offer) and a retry uses the same key", async () => {
    const failing = refundingProvider("fail");
    const admin = await createUser({ role: "admin" });
    const r = await pendingRequest();
    await expect(approveRefund(actorOf(admin), r.request.id, "Approved.")).rejects.toMatchObject({ status: 502, message: REFUND_PROVIDER_FAILED });
    expect(await state(idsOf(r))).toMatchObject({
      request: { status: "pending", adminNotes: null, processedById: null, processedAt: null },
      payment: "completed",
      subscription: "active",
      accountType: "premium",
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(decisionMails(r.request.contactEmail!)).toHaveLength(0);

    const working = refundingProvider("succeeded");
    await approveRefund(actorOf(admin), r.request.id, "Approved on retry.");
    expect(working[0]!.key).toBe(failing[0]!.key);
    expect((await state(idsOf(r))).request.status).toBe("processed");
  });

  it("a payment without a payment intent (seeded history) is refunded locally", async () => {
    const calls = refundingProvider("succeeded");
    const admin = await createUser({ role: "admin" });
    const r = await pendingRequest({ paymentIntent: false });
    expect(await approveRefund(actorOf(admin), r.request.id, "Refunded by bank transfer.")).toMatchObject({ status: "processed" });
    expect(calls).toHaveLength(0);
    expect(await state(idsOf(r))).toMatchObject({ payment: "refunded", subscription: "canceled", accountType: "free" });
  });

  it("premium stays when another subscription is active", async () => {
    refundingProvider("succeeded");
    const admin = await createUser({ role: "admin" });
    const r = await pendingRequest({ otherActive: true });
    await approveRefund(actorOf(admin), r.request.id, "Approved.");
    expect(await state(idsOf(r))).toMatchObject({ subscription: "canceled", accountType: "premium" });
  });
});

describe("rejectRefund", () => {
  it("rejected with the notes, nothing refunded, the member is told", async () => {
    const calls = refundingProvider("succeeded");
    const admin = await createUser({ role: "admin" });
    const r = await pendingRequest();
    expect(await rejectRefund(actorOf(admin), r.request.id, "The purchase is older than 30 days.")).toMatchObject({
      status: "rejected",
      adminNotes: "The purchase is older than 30 days.",
      processedById: admin.id,
    });
    expect(calls).toHaveLength(0);
    expect(await state(idsOf(r))).toMatchObject({ payment: "completed", subscription: "active", accountType: "premium" });
    await vi.waitFor(() => expect(decisionMails(r.request.contactEmail!)).toHaveLength(1));
    const [m] = decisionMails(r.request.contactEmail!);
    expect(m!.subject).toBe("Your refund request was rejected");
    expect(m!.text).toContain("The purchase is older than 30 days.");

    await expect(rejectRefund(actorOf(admin), r.request.id, "Again.")).rejects.toMatchObject({
      status: 409,
      message: "This refund request has already been rejected.",
    });
    await expect(approveRefund(actorOf(admin), r.request.id, "Changed my mind.")).rejects.toMatchObject({ status: 409 });
    expect(calls).toHaveLength(0);
  });
});

describe("validation", () => {
  it.each([
    ["approve", approveRefund],
    ["reject", rejectRefund],
  ] as const)("%s: notes are required (400 on adminNotes); unknown requests 404", async (_, decide) => {
    refundingProvider("succeeded");
    const admin = await createUser({ role: "admin" });
    const r = await pendingRequest();
    for (const notes of ["", "   ", undefined as unknown as string]) {
      await expect(decide(actorOf(admin), r.request.id, notes)).rejects.toMatchObject({ status: 400, message: ADMIN_NOTES_REQUIRED, field: "adminNotes" });
    }
    expect((await state(idsOf(r))).request.status).toBe("pending");
    await expect(decide(actorOf(admin), crypto.randomUUID(), "Notes.")).rejects.toMatchObject({ status: 404 });
    await expect(decide(actorOf(admin), "not-a-uuid", "Notes.")).rejects.toMatchObject({ status: 404 });
  });
});

describe("the refund_decision template in a database seeded before it existed", () => {
  it("an unedited earlier version is brought up to date by the seed; an admin's edit is kept", async () => {
    const { EMAIL_TEMPLATES, seedEmailTemplates } = await import("../../prisma/seed-data/email-templates.ts");
    const current = EMAIL_TEMPLATES.find((t) => t.name === "refund_decision")!;
    const wrapped = (body: string) => current.htmlContent.replace(/<h1>[\s\S]*<\/p><p style/, `${body}<p style`);
    const earlier = wrapped(
      `<h1>Refund request {{decision}}</h1><p>Hello {{firstName}},</p><p>Your refund request for <strong>{{description}}</strong> ({{amount}}) was {{decision}}.</p><p>Notes from our team: {{adminNotes}}</p>`,
    );
    await prisma.emailTemplate.update({ where: { name: "refund_decision" }, data: { subject: "Your refund request was {{decision}}", htmlContent: earlier } });
    await seedEmailTemplates(prisma);
    const upgraded = await prisma.emailTemplate.findUniqueOrThrow({ where: { name: "refund_decision" } });
    expect(upgraded.htmlContent).toBe(current.htmlContent);
    expect(upgraded.variables).toEqual(current.variables);

    await prisma.emailTemplate.update({ where: { name: "refund_decision" }, data: { htmlContent: `${earlier}<p>Edited by the admin.</p>` } });
    await seedEmailTemplates(prisma);
    expect((await prisma.emailTemplate.findUniqueOrThrow({ where: { name: "refund_decision" } })).htmlContent).toContain("Edited by the admin.");
    await prisma.emailTemplate.update({ where: { name: "refund_decision" }, data: { htmlContent: current.htmlContent } });
  });
});
