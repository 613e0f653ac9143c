import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import * as billingPage from "~/routes/account/billing.tsx";
import * as dashboardPage from "~/routes/account/dashboard.tsx";
import * as libraryPage from "~/routes/account/my-animations.tsx";
import * as refundPage from "~/routes/account/refund.tsx";
import * as watchPage from "~/routes/account/watch.tsx";
import * as animationsApi from "~/routes/api/dashboard.animations.ts";
import * as statsApi from "~/routes/api/dashboard.stats.ts";
import * as paymentsApi from "~/routes/api/payments.me.ts";
import * as refundsApi from "~/routes/api/refunds.request.ts";
import * as subscriptionsApi from "~/routes/api/subscriptions.me.ts";
import { accessTokenFor, createPaidSubscription, createUser, sessionCookieFor } from "../helpers/factories.ts";
import { callRoute } from "../helpers/route.ts";
import { createAnimation, createCategory, DAY_MS, useMailCapture } from "./account-helpers.ts";

const mail = useMailCapture();

const refundBody = (subscriptionId: string, extra: Record<string, unknown> = {}) => ({
  subscriptionId,
  reason: "not-satisfied",
  description: "The animations were not what I needed for my lectures.",
  contactEmail: "refunds@example.com",
  ...extra,
});

describe("anonymous callers", () => {
  it.each([
    ["subscriptions", subscriptionsApi, "/api/subscriptions/me", "GET"],
    ["payments", paymentsApi, "/api/payments/me", "GET"],
    ["stats", statsApi, "/api/dashboard/stats", "GET"],
    ["animations", animationsApi, "/api/dashboard/animations", "GET"],
    ["refund", refundsApi, "/api/refunds/request", "POST"],
  ] as const)("%s: 401 with a message", async (_, mod, url, method) => {
    const res = await callRoute(mod, url, method === "POST" ? { json: refundBody(crypto.randomUUID()) } : {});
    expect(res.status).toBe(401);
    expect(res.body.message).toEqual(expect.any(String));
  });

  it.each([
    ["dashboard", dashboardPage, "/dashboard"],
    ["my-animations", libraryPage, "/my-animations"],
    ["billing", billingPage, "/billing"],
    ["refund", refundPage, "/refund"],
    ["watch", watchPage, `/watch/${crypto.randomUUID()}`],
  ] as const)("the %s page sends them to /auth", async (_, mod, url) => {
    const res = await callRoute(mod, url, { params: { id: url.split("/")[2] ?? "" } });
    expect(res.status).toBe(302);
    expect(res.location).toBe(`/auth?redirectTo=${encodeURIComponent(url)}`);
  });

  it("a client-side navigation (/page.data?_routes=...) is sent back to the page itself after sign-in", async () => {
    const res = await callRoute(libraryPage, "/my-animations.data?q=knee&_routes=routes%2Faccount%2Fmy-animations");
    expect(res.status).toBe(302);
    expect(res.location).toBe(`/auth?redirectTo=${encodeURIComponent("/my-animations?q=knee")}`);
  });
});

describe("GET /api/subscriptions/me and /api/payments/me", () => {
  it("list only the caller's rows, money as numbers", async () => {
    const [user, other] = await Promise.all([createUser(), createUser()]);
    const category = await createCategory();
    const { subscription } = await createPaidSubscription(user.id, { type: "category", categoryId: category.id, amount: 149.5 });
    await createPaidSubscription(other.id);

    const subs = await callRoute(subscriptionsApi, "/api/subscriptions/me", { token: await accessTokenFor(user.id) });
    expect(subs.status).toBe(200);
    expect(subs.headers.get("Cache-Control")).toBe("no-store");
    expect(subs.body).toEqual([
      expect.objectContaining({
        id: subscription.id,
        type: "category",
        status: "active",
        categoryId: category.id,
        animationId: null,
        price: 149.5,
        categoryName: category.name,
        startDate: expect.any(String),
        endDate: expect.any(String),
      }),
    ]);

    const payments = await callRoute(paymentsApi, "/api/payments/me", { token: await accessTokenFor(user.id) });
    expect(payments.status).toBe(200);
    expect(payments.body).toEqual([
      {
        id: expect.any(String),
        description: "category subscription",
        subscriptionType: "category",
        amount: 149.5,
        status: "completed",
        createdAt: expect.any(String),
      },
    ]);
  });
});

describe("dashboard stats and the library", () => {
  it("totalSpent sums completed payments; activeSubscriptions counts active unexpired ones", async () => {
    const user = await createUser();
    await createPaidSubscription(user.id, { amount: 99 });
    await createPaidSubscription(user.id, { amount: 50, paymentStatus: "refunded", status: "canceled" });
    await createPaidSubscription(user.id, { amount: 10, status: "canceled" });
    await createPaidSubscription(user.id, { amount: 20, endDate: new Date(Date.now() - DAY_MS) });
    const res = await callRoute(statsApi, "/api/dashboard/stats", { token: await accessTokenFor(user.id) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ totalSpent: 129, activeSubscriptions: 1, licensedAnimations: 0 });
  });

  it("lists individual and category licences (with sub-categories), their type and expiry, and searches case-insensitively", async () => {
    const user = await createUser();
    const main = await createCategory();
    const sub = await createCategory({ parentId: main.id });
    const elsewhere = await createCategory();
    const inMain = await createAnimation({ categoryId: main.id, title: "Rhinoplasty Basics" });
    const inSub = await createAnimation({ categoryId: sub.id, title: "Septum Repair", description: "Covers the NASAL septum." });
    const single = await createAnimation({ categoryId: elsewhere.id, title: "Heart Valve" });
    await createAnimation({ categoryId: elsewhere.id, title: "Not licensed" });
    await createAnimation({ categoryId: main.id, title: "Hidden", isActive: false });
    const soon = new Date(Date.now() + 10 * DAY_MS);
    await createPaidSubscription(user.id, { type: "category", categoryId: main.id });
    await createPaidSubscription(user.id, { type: "individual", animationId: single.id, endDate: soon });
    // Expired and canceled licences give nothing.
    await createPaidSubscription(user.id, { type: "category", categoryId: elsewhere.id, status: "canceled" });

    const token = await accessTokenFor(user.id);
    const all = await callRoute(animationsApi, "/api/dashboard/animations", { token });
    expect(all.status).toBe(200);
    expect(all.body.map((a: { title: string }) => a.title)).toEqual(["Heart Valve", "Rhinoplasty Basics", "Septum Repair"]);
    const heart = all.body[0];
    expect(heart).toMatchObject({ id: single.id, licenseType: "individual", duration: 95, coverImage: "/demo/cover.jpg" });
    expect(new Date(heart.expiryDate).getTime()).toBe(soon.getTime());
    expect(all.body[2]).toMatchObject({ id: inSub.id, licenseType: "category" });
    expect(Object.keys(heart)).toEqual(expect.arrayContaining(["id", "title", "description", "coverImage", "duration", "licenseType", "expiryDate"]));

    const search = await callRoute(animationsApi, "/api/dashboard/animations?q=nasal", { token });
    expect(search.body.map((a: { id: string }) => a.id)).toEqual([inSub.id]);
    const byTitle = await callRoute(animationsApi, "/api/dashboard/animations?q=RHINO", { token });
    expect(byTitle.body.map((a: { id: string }) => a.id)).toEqual([inMain.id]);

    const stats = await callRoute(statsApi, "/api/dashboard/stats", { token });
    expect(stats.body.licensedAnimations).toBe(3);

    const page = await callRoute(libraryPage, "/my-animations?q=septum", { cookie: await sessionCookieFor(user.id) });
    expect(page.body.animations.map((a: { id: string }) => a.id)).toEqual([inSub.id]);
    expect(page.body.total).toBe(1);

    const dashboard = await callRoute(dashboardPage, "/dashboard", { cookie: await sessionCookieFor(user.id) });
    expect(dashboard.body.stats.recentAnimations).toHaveLength(3);
    expect(dashboard.body.user.firstName).toBe(user.firstName);

    // Another user sees none of it.
    const other = await createUser();
    expect((await callRoute(animationsApi, "/api/dashboard/animations", { token: await accessTokenFor(other.id) })).body).toEqual([]);
  });
});

describe("POST /api/refunds/request", () => {
  it("stores a pending request for the latest completed payment and mails the contact address", async () => {
    const user = await createUser();
    const { subscription, payment } = await createPaidSubscription(user.id, { amount: 99, paidDaysAgo: 3, description: "Premium yearly" });
    const res = await callRoute(refundsApi, "/api/refunds/request", { token: await accessTokenFor(user.id), json: refundBody(subscription.id) });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe("Refund Request Submitted");
    const row = await prisma.refundRequest.findFirstOrThrow({ where: { userId: user.id } });
    expect(row).toMatchObject({ paymentId: payment.id, status: "pending", reason: "not-satisfied", contactEmail: "refunds@example.com" });
    const sent = mail.to("refunds@example.com").at(-1);
    expect(sent?.subject).toBe("We received your refund request");
    expect(sent?.text).toContain("Premium yearly");
    expect(sent?.text).toContain("$99.00");
  });

  it("refuses a second pending request for the same payment (409)", async () => {
    const user = await createUser();
    const { subscription } = await createPaidSubscription(user.id);
    const token = await accessTokenFor(user.id);
    expect((await callRoute(refundsApi, "/api/refunds/request", { token, json: refundBody(subscription.id) })).status).toBe(201);
    const again = await callRoute(refundsApi, "/api/refunds/request", { token, json: refundBody(subscription.id) });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("A refund request for this payment is already pending.");
  });

  it("only within 30 days of the payment", async () => {
    const user = await createUser();
    const { subscription } = await createPaidSubscription(user.id, { paidDaysAgo: 31 });
    const res = await callRoute(refundsApi, "/api/refunds/request", { token: await accessTokenFor(user.id), json: refundBody(subscription.id) });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Refunds are available within 30 days of purchase.");
    const fresh = await createPaidSubscription(user.id, { paidDaysAgo: 29 });
    expect(
      (await callRoute(refundsApi, "/api/refunds/request", { token: await accessTokenFor(user.id), json: refundBody(fresh.subscription.id) })).status,
    ).toBe(201);
  });

  it("another user's subscription or payment: 404, and nothing is stored", async () => {
    const [user, other] = await Promise.all([createUser(), createUser()]);
    const theirs = await createPaidSubscription(other.id);
    const mine = await createPaidSubscription(user.id);
    const token = await accessTokenFor(user.id);
    const sub = await callRoute(refundsApi, "/api/refunds/request", { token, json: refundBody(theirs.subscription.id) });
    expect(sub.status).toBe(404);
    const pay = await callRoute(refundsApi, "/api/refunds/request", { token, json: refundBody(mine.subscription.id, { paymentId: theirs.payment.id }) });
    expect(pay.status).toBe(404);
    expect(await prisma.refundRequest.count({ where: { userId: user.id } })).toBe(0);
  });

  it("refuses payments that are not completed", async () => {
    const user = await createUser();
    const refunded = await createPaidSubscription(user.id, { paymentStatus: "refunded" });
    const token = await accessTokenFor(user.id);
    const res = await callRoute(refundsApi, "/api/refunds/request", { token, json: refundBody(refunded.subscription.id, { paymentId: refunded.payment.id }) });
    expect(res.status).toBe(409);
    const noPayment = await callRoute(refundsApi, "/api/refunds/request", { token, json: refundBody(refunded.subscription.id) });
    expect(noPayment.status).toBe(400);
  });

  it.each([
    [{ subscriptionId: "" }, "Please select a subscription"],
    [{ reason: "" }, "Please select a reason"],
    [{ reason: "because" }, "Please select a reason"],
    [{ description: "too short" }, "Please provide a detailed explanation (minimum 20 characters)"],
    [{ contactEmail: "nope" }, "Must be a valid email"],
  ])("400 with the form's message for %o", async (change, message) => {
    const user = await createUser();
    const { subscription } = await createPaidSubscription(user.id);
    const res = await callRoute(refundsApi, "/api/refunds/request", { token: await accessTokenFor(user.id), json: refundBody(subscription.id, change) });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });
});

describe("/billing and /refund pages", () => {
  it("billing lists only active subscriptions and every payment", async () => {
    const user = await createUser();
    await createPaidSubscription(user.id, { amount: 99 });
    await createPaidSubscription(user.id, { amount: 10, status: "canceled" });
    await createPaidSubscription(user.id, { amount: 5, paymentStatus: "failed" });
    const res = await callRoute(billingPage, "/billing", { cookie: await sessionCookieFor(user.id) });
    expect(res.body.subscriptions).toHaveLength(2);
    expect(res.body.payments).toHaveLength(3);
    expect(res.body.totalSpent).toBe(109);
  });

  it("refund offers only refundable subscriptions, lists the others with the reason, preselects ?payment=, and 404s for someone else's payment", async () => {
    const [user, other] = await Promise.all([createUser(), createUser()]);
    const active = await createPaidSubscription(user.id);
    const old = await createPaidSubscription(user.id, { status: "expired", paidDaysAgo: 90, endDate: new Date(Date.now() - DAY_MS) });
    const refunded = await createPaidSubscription(user.id, { status: "canceled", paymentStatus: "refunded", paidDaysAgo: 3 });
    const canceledRecent = await createPaidSubscription(user.id, { status: "canceled", paidDaysAgo: 2 });
    const theirs = await createPaidSubscription(other.id);
    const cookie = await sessionCookieFor(user.id);

    const page = await callRoute(refundPage, `/refund?payment=${active.payment.id}`, { cookie });
    expect(page.status).toBe(200);
    expect(page.body.subscriptions.map((s: { id: string }) => s.id).sort()).toEqual([active.subscription.id, canceledRecent.subscription.id].sort());
    expect(page.body.payment).toMatchObject({ id: active.payment.id, subscriptionId: active.subscription.id });
    expect(page.body.email).toBe(user.email);
    const reasons = Object.fromEntries(page.body.unavailable.map((s: { id: string; reason: string }) => [s.id, s.reason]));
    expect(reasons[old.subscription.id]).toBe("Refunds are available within 30 days of purchase.");
    expect(reasons[refunded.subscription.id]).toBe("This payment has already been refunded.");

    // A pending request moves its subscription out of the offer, with the reason.
    await prisma.refundRequest.create({ data: { userId: user.id, paymentId: canceledRecent.payment.id, reason: "other", status: "pending" } });
    const later = await callRoute(refundPage, "/refund", { cookie });
    expect(later.body.subscriptions.map((s: { id: string }) => s.id)).toEqual([active.subscription.id]);
    expect(later.body.unavailable.find((s: { id: string }) => s.id === canceledRecent.subscription.id)?.reason).toBe(
      "A refund request for this payment is already pending.",
    );
    // Opened from the old payment, the form says why instead of preselecting it.
    const fromOld = await callRoute(refundPage, `/refund?payment=${old.payment.id}`, { cookie });
    expect(fromOld.body.payment).toMatchObject({ id: old.payment.id, subscriptionId: null });

    expect((await callRoute(refundPage, `/refund?payment=${theirs.payment.id}`, { cookie })).status).toBe(404);

    const empty = await createUser();
    expect((await callRoute(refundPage, "/refund", { cookie: await sessionCookieFor(empty.id) })).body.subscriptions).toEqual([]);
  });

  it("refund action: errors inline, success redirects to the dashboard with the toast", async () => {
    const user = await createUser();
    const { subscription, payment } = await createPaidSubscription(user.id);
    const cookie = await sessionCookieFor(user.id);
    const bad = await callRoute(refundPage, "/refund", { cookie, form: { subscriptionId: "", reason: "", description: "short", contactEmail: user.email } });
    expect(bad.status).toBe(400);
    expect(bad.body.result.error).toMatchObject({
      subscriptionId: ["Please select a subscription"],
      reason: ["Please select a reason"],
      description: ["Please provide a detailed explanation (minimum 20 characters)"],
    });
    const ok = await callRoute(refundPage, "/refund", {
      cookie,
      form: {
        subscriptionId: subscription.id,
        paymentId: payment.id,
        reason: "billing-error",
        description: "I was charged twice for the same plan.",
        contactEmail: user.email,
      },
    });
    expect(ok.status).toBe(302);
    expect(ok.location).toBe("/dashboard");
    const again = await callRoute(refundPage, "/refund", {
      cookie,
      form: {
        subscriptionId: subscription.id,
        paymentId: payment.id,
        reason: "billing-error",
        description: "I was charged twice for the same plan.",
        contactEmail: user.email,
      },
    });
    expect(again.status).toBe(409);
    expect(again.body.result.error[""]).toEqual(["A refund request for this payment is already pending."]);
  });
});

describe("/watch/{id}", () => {
  it("plays for a licence holder (with download), sends others to the animation page", async () => {
    const [holder, premium, free] = await Promise.all([createUser(), createUser({ accountType: "premium" }), createUser()]);
    const animation = await createAnimation();
    await createPaidSubscription(holder.id, { type: "individual", animationId: animation.id });

    const mine = await callRoute(watchPage, `/watch/${animation.id}`, { cookie: await sessionCookieFor(holder.id), params: { id: animation.id } });
    expect(mine.status).toBe(200);
    expect(mine.body.animation).toMatchObject({ fullVideo: animation.fullVideo, downloadFile: animation.downloadFile });

    const streamOnly = await callRoute(watchPage, `/watch/${animation.id}`, { cookie: await sessionCookieFor(premium.id), params: { id: animation.id } });
    expect(streamOnly.body.animation).toMatchObject({ fullVideo: animation.fullVideo, downloadFile: null });

    const refused = await callRoute(watchPage, `/watch/${animation.id}`, { cookie: await sessionCookieFor(free.id), params: { id: animation.id } });
    expect(refused.status).toBe(302);
    expect(refused.location).toBe(`/animations/${animation.slug}`);

    const missing = await callRoute(watchPage, "/watch/nope", { cookie: await sessionCookieFor(free.id), params: { id: "nope" } });
    expect(missing.status).toBe(404);
  });
});
