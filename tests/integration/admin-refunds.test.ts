import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import * as listScreen from "~/routes/admin/refunds.tsx";
import * as decisionScreen from "~/routes/admin/refund-decision.tsx";
import * as listApi from "~/routes/api/admin/refund-requests.ts";
import * as decideApi from "~/routes/api/admin/refund-requests.decide.ts";
import { ADMIN_NOTES_REQUIRED } from "~/validation/admin-refunds.ts";
import { accessTokenFor, createPaidSubscription, createUser, sessionCookieFor } from "../helpers/factories.ts";
import { useMailCapture } from "../helpers/mail-capture.ts";
import { callRoute } from "../helpers/route.ts";

// /admin/refunds and its calls: the list with search, status filter and stat cards; approve and
// reject with required notes through the refund services; an audit row for each decision.

useMailCapture();

async function admin() {
  const user = await createUser({ role: "admin" });
  return { user, token: await accessTokenFor(user.id), cookie: await sessionCookieFor(user.id) };
}

async function pendingRequest(reason = "not-satisfied") {
  const member = await createUser({ firstName: "Rosalind", lastName: `Franklin${Date.now()}` });
  const { subscription, payment } = await createPaidSubscription(member.id, { type: "global", description: "Premium yearly subscription" });
  const request = await prisma.refundRequest.create({
    data: { userId: member.id, paymentId: payment.id, reason, description: "The animations were not what I needed.", contactEmail: member.email },
  });
  return { member, subscription, payment, request };
}

describe("GET /api/admin/refund-requests", () => {
  it("lists the admin rows, searched by name, e-mail or reason, filtered by status", async () => {
    const { token } = await admin();
    const r = await pendingRequest("billing-error");
    const found = await callRoute(listApi, `/api/admin/refund-requests?search=${r.member.lastName}`, { token });
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject([
      {
        id: r.request.id,
        userName: `Rosalind ${r.member.lastName}`,
        userEmail: r.member.email,
        paymentAmount: 99,
        paymentDescription: "Premium yearly subscription",
        reason: "billing-error",
        status: "pending",
      },
    ]);
    expect(
      (await callRoute(listApi, "/api/admin/refund-requests?search=billing-err&status=pending", { token })).body.map((row: { id: string }) => row.id),
    ).toContain(r.request.id);
    expect((await callRoute(listApi, `/api/admin/refund-requests?search=${r.member.email}&status=rejected`, { token })).body).toEqual([]);
  });
});

describe("decisions", () => {
  it("notes are required (400 with the product's message); unknown requests 404", async () => {
    const { token } = await admin();
    const r = await pendingRequest();
    const blank = await callRoute(decideApi, `/api/admin/refund-requests/${r.request.id}/approve`, {
      method: "PUT",
      json: { adminNotes: "  " },
      params: { id: r.request.id },
      token,
    });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ message: ADMIN_NOTES_REQUIRED, errors: { adminNotes: [ADMIN_NOTES_REQUIRED] } });
    const missing = await callRoute(decideApi, "/api/admin/refund-requests/00000000-0000-4000-8000-000000000000/reject", {
      method: "PUT",
      json: { adminNotes: "No." },
      params: { id: "00000000-0000-4000-8000-000000000000" },
      token,
    });
    expect(missing.status).toBe(404);
    expect((await prisma.refundRequest.findUniqueOrThrow({ where: { id: r.request.id } })).status).toBe("pending");
  });

  it("approve refunds the payment and ends access; reject keeps it; each audited", async () => {
    const { token } = await admin();
    const a = await pendingRequest();
    const approved = await callRoute(decideApi, `/api/admin/refund-requests/${a.request.id}/approve`, {
      method: "PUT",
      json: { adminNotes: "Within 30 days." },
      params: { id: a.request.id },
      token,
    });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: "processed", adminNotes: "Within 30 days." });
    expect((await prisma.payment.findUniqueOrThrow({ where: { id: a.payment.id } })).status).toBe("refunded");
    expect((await prisma.subscription.findUniqueOrThrow({ where: { id: a.subscription.id } })).status).toBe("canceled");

    const b = await pendingRequest();
    const rejected = await callRoute(decideApi, `/api/admin/refund-requests/${b.request.id}/reject`, {
      method: "PUT",
      json: { adminNotes: "Past the window." },
      params: { id: b.request.id },
      token,
    });
    expect(rejected.body).toMatchObject({ status: "rejected" });
    expect((await prisma.payment.findUniqueOrThrow({ where: { id: b.payment.id } })).status).toBe("completed");

    const again = await callRoute(decideApi, `/api/admin/refund-requests/${b.request.id}/approve`, {
      method: "PUT",
      json: { adminNotes: "Changed my mind." },
      params: { id: b.request.id },
      token,
    });
    expect(again.status).toBe(409);

    const audit = await prisma.auditLog.findMany({ where: { entityId: { in: [a.request.id, b.request.id] } }, orderBy: { createdAt: "asc" } });
    expect(audit.map((row) => [row.entityId, row.action])).toEqual([
      [a.request.id, "refund.approve"],
      [b.request.id, "refund.reject"],
    ]);
    expect(audit[1]!.changes).toMatchObject({ status: ["pending", "rejected"], adminNotes: [null, "Past the window."] });
  });
});

describe("the screens", () => {
  it("the list counts requests by status; the decision page shows the request and requires notes", async () => {
    const { cookie } = await admin();
    const r = await pendingRequest();
    const list = await callRoute(listScreen, `/admin/refunds?search=${r.member.email}`, { cookie });
    expect(list.body.requests.map((row: { id: string }) => row.id)).toEqual([r.request.id]);
    expect(list.body.stats.pending).toBeGreaterThanOrEqual(1);
    expect(list.body.stats.total).toBeGreaterThanOrEqual(list.body.stats.pending + list.body.stats.approved + list.body.stats.rejected);

    const page = await callRoute(decisionScreen, `/admin/refunds/${r.request.id}?decision=reject`, { params: { id: r.request.id }, cookie });
    expect(page.body).toMatchObject({ decision: "reject", request: { userEmail: r.member.email, paymentAmount: 99, reason: "not-satisfied" } });
    const blank = await callRoute(decisionScreen, `/admin/refunds/${r.request.id}`, {
      form: { intent: "reject", adminNotes: "" },
      params: { id: r.request.id },
      cookie,
    });
    expect(blank.status).toBe(400);
    expect(JSON.stringify(blank.body)).toContain(ADMIN_NOTES_REQUIRED);
    const done = await callRoute(decisionScreen, `/admin/refunds/${r.request.id}`, {
      form: { intent: "reject", adminNotes: "Outside the policy." },
      params: { id: r.request.id },
      cookie,
    });
    expect(done.status).toBe(302);
    expect(done.location).toBe("/admin/refunds");
    expect((await prisma.refundRequest.findUniqueOrThrow({ where: { id: r.request.id } })).status).toBe("rejected");
  });
});
