import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import * as certificateRoute from "~/routes/account/certificate.ts";
import * as analyticsCsvRoute from "~/routes/account/licence-analytics-csv.ts";
import * as receiptPdfRoute from "~/routes/account/receipt-pdf.ts";
import * as receiptPage from "~/routes/account/receipt.tsx";
import * as libraryPage from "~/routes/account/my-animations.tsx";
import * as refundPage from "~/routes/account/refund.tsx";
import * as watchPage from "~/routes/account/watch.tsx";
import * as adminSubscriptionChange from "~/routes/api/admin/subscriptions.change.ts";
import * as paymentsMe from "~/routes/api/payments.me.ts";
import * as paymentSuccess from "~/routes/api/payments.success.ts";
import * as refundsApi from "~/routes/api/refunds.request.ts";
import * as subscriptionsMe from "~/routes/api/subscriptions.me.ts";
import * as dashboardAnimations from "~/routes/api/dashboard.animations.ts";
import * as licenceAnalytics from "~/routes/api/licences.id.analytics.ts";
import { accessTokenFor, createPaidSubscription, createUser, sessionCookieFor } from "../helpers/factories.ts";
import { callRoute } from "../helpers/route.ts";
import { createMediaWorld, startMediaApp } from "./media-helpers.ts";

// Every object reachable by its id, tried by a second signed-in user (refund
// requests, payments, receipts, certificates, subscriptions, watch and download URLs, embed
// sites). Each
// answers as if the object did not exist for them, and nothing is written.

let world: Awaited<ReturnType<typeof createMediaWorld>>;
let app: Awaited<ReturnType<typeof startMediaApp>>;
let owner: { id: string };
let licence: Awaited<ReturnType<typeof createPaidSubscription>>;
let stranger: { id: string };
let strangerToken: string;
let strangerCookie: string;

beforeAll(async () => {
  [world, app] = await Promise.all([createMediaWorld(), startMediaApp()]);
  owner = world.users.individual;
  licence = await createPaidSubscription(owner.id, { type: "individual", animationId: world.animation.id, paidDaysAgo: 2 });
  await prisma.payment.update({ where: { id: licence.payment.id }, data: { stripePaymentIntentId: `pi_owner_${licence.payment.id}` } });
  // The stranger is a paying member with rights of their own: premium, but no licence.
  stranger = world.users.premium;
  strangerToken = await accessTokenFor(stranger.id);
  strangerCookie = await sessionCookieFor(stranger.id);
});
afterAll(() => app?.close());

async function rowCounts() {
  const [refunds, subscriptions, payments] = await Promise.all([prisma.refundRequest.count(), prisma.subscription.count(), prisma.payment.count()]);
  return { refunds, subscriptions, payments };
}

describe("another user's objects, by id", () => {
  it("a refund request for someone else's subscription or payment: 404, nothing stored", async () => {
    const before = await rowCounts();
    const body = {
      subscriptionId: licence.subscription.id,
      reason: "other",
      description: "I would like my money back for this one.",
      contactEmail: "x@example.com",
    };
    const bySubscription = await callRoute(refundsApi, "/api/refunds/request", { token: strangerToken, json: body });
    expect(bySubscription.status).toBe(404);
    const own = await createPaidSubscription(stranger.id, { paidDaysAgo: 1 });
    const byPayment = await callRoute(refundsApi, "/api/refunds/request", {
      token: strangerToken,
      json: { ...body, subscriptionId: own.subscription.id, paymentId: licence.payment.id },
    });
    expect(byPayment.status).toBe(404);
    const page = await callRoute(refundPage, `/refund?payment=${licence.payment.id}`, { cookie: strangerCookie });
    expect(page.status).toBe(404);
    expect((await rowCounts()).refunds).toBe(before.refunds);
  });

  it("confirming someone else's payment: 404, nothing granted", async () => {
    const before = await rowCounts();
    const res = await callRoute(paymentSuccess, "/api/payments/success", { token: strangerToken, json: { paymentIntentId: `pi_owner_${licence.payment.id}` } });
    expect(res.status).toBe(404);
    expect(await rowCounts()).toEqual(before);
  });

  it("receipts and their PDF, and the licence certificate: 404 to anyone but the owner", async () => {
    const params = { paymentId: licence.payment.id };
    expect((await callRoute(receiptPage, `/billing/receipts/${licence.payment.id}`, { cookie: strangerCookie, params })).status).toBe(404);
    expect((await callRoute(receiptPdfRoute, `/billing/receipts/${licence.payment.id}/pdf`, { cookie: strangerCookie, params })).status).toBe(404);
    const certificate = await callRoute(certificateRoute, `/licences/${licence.subscription.id}/certificate`, {
      cookie: strangerCookie,
      params: { id: licence.subscription.id },
    });
    expect(certificate.status).toBe(404);
    // The owner gets each of them.
    const ownerCookie = await sessionCookieFor(owner.id);
    expect((await callRoute(receiptPdfRoute, `/billing/receipts/${licence.payment.id}/pdf`, { cookie: ownerCookie, params })).status).toBe(200);
    expect(
      (await callRoute(certificateRoute, `/licences/${licence.subscription.id}/certificate`, { cookie: ownerCookie, params: { id: licence.subscription.id } }))
        .status,
    ).toBe(200);
  });

  it("a licence's analytics, as JSON and as CSV: 404 to anyone but its holder", async () => {
    const id = licence.subscription.id;
    const api = await callRoute(licenceAnalytics, `/api/licences/${id}/analytics`, { token: strangerToken });
    expect(api).toMatchObject({ status: 404, body: { message: "License not found" } });
    expect((await callRoute(analyticsCsvRoute, `/licences/${id}/analytics.csv`, { cookie: strangerCookie, params: { id } })).status).toBe(404);
    expect((await callRoute(licenceAnalytics, `/api/licences/${id}/analytics`, { token: await accessTokenFor(owner.id) })).status).toBe(200);
  });

  it("subscriptions, payments and the library list only the caller's own", async () => {
    const subscriptions = await callRoute(subscriptionsMe, "/api/subscriptions/me", { token: strangerToken });
    expect(subscriptions.body.map((s: { id: string }) => s.id)).not.toContain(licence.subscription.id);
    const payments = await callRoute(paymentsMe, "/api/payments/me", { token: strangerToken });
    expect(payments.body.map((p: { id: string }) => p.id)).not.toContain(licence.payment.id);
    const library = await callRoute(dashboardAnimations, "/api/dashboard/animations", { token: strangerToken });
    expect(library.body.map((a: { id: string }) => a.id)).not.toContain(world.animation.id);
  });

  it("someone else's subscription cannot be canceled through the admin call by a member: 403, unchanged", async () => {
    const res = await callRoute(adminSubscriptionChange, `/api/admin/subscriptions/${licence.subscription.id}/cancel`, {
      method: "PUT",
      token: strangerToken,
      params: { id: licence.subscription.id },
    });
    expect(res.status).toBe(403);
    expect((await prisma.subscription.findUniqueOrThrow({ where: { id: licence.subscription.id } })).status).toBe("active");
  });

  it("the player's download and the download file itself: only for the licence holder", async () => {
    const watch = await callRoute(watchPage, `/watch/${world.animation.id}`, { cookie: strangerCookie, params: { id: world.animation.id } });
    // A premium stranger may watch, but the player offers no download.
    expect(watch.status).toBe(200);
    expect(JSON.stringify(watch.body)).not.toContain(world.objects.download.path);
    const download = await fetch(`${app.url}${world.objects.download.path}`, { headers: { Authorization: `Bearer ${strangerToken}` }, redirect: "manual" });
    expect(download.status).toBe(403);
    const mine = await fetch(`${app.url}${world.objects.download.path}`, {
      headers: { Authorization: `Bearer ${await accessTokenFor(owner.id)}` },
      redirect: "manual",
    });
    expect(mine.status).toBe(200);
  });

  it("a free stranger gets neither the full video nor the player", async () => {
    const free = await createUser();
    const cookie = await sessionCookieFor(free.id);
    const watch = await callRoute(watchPage, `/watch/${world.animation.id}`, { cookie, params: { id: world.animation.id } });
    expect(watch.status).toBe(302);
    expect(watch.location).toContain(`/animations/`);
    const video = await fetch(`${app.url}${world.objects.full.path}`, { headers: { Cookie: cookie }, redirect: "manual" });
    expect(video.status).toBe(403);
  });

  it("the sites of someone else's licence: neither added nor removed (404), and the embed is not theirs to list", async () => {
    const domain = await prisma.licenceEmbedDomain.create({ data: { subscriptionId: licence.subscription.id, host: "clinic.example" } });
    const add = await callRoute(libraryPage, "/my-animations", {
      cookie: strangerCookie,
      form: { intent: "add-domain", licenceId: licence.subscription.id, host: "evil.example" },
    });
    expect(add.status).toBe(404);
    const remove = await callRoute(libraryPage, "/my-animations", {
      cookie: strangerCookie,
      form: { intent: "remove-domain", licenceId: licence.subscription.id, domainId: domain.id },
    });
    expect(remove.status).toBe(302);
    expect((await prisma.licenceEmbedDomain.findMany({ where: { subscriptionId: licence.subscription.id } })).map((d) => d.host)).toEqual(["clinic.example"]);
    const page = await callRoute(libraryPage, "/my-animations", { cookie: strangerCookie });
    expect(JSON.stringify(page.body)).not.toContain(licence.subscription.id);
  });
});
