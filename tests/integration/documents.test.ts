import { createElement, type ComponentType } from "react";
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { appUrl } from "~/lib/mail.server.ts";
import * as billingPage from "~/routes/account/billing.tsx";
import * as certificateRoute from "~/routes/account/certificate.ts";
import * as libraryPage from "~/routes/account/my-animations.tsx";
import * as receiptPdfRoute from "~/routes/account/receipt-pdf.ts";
import * as receiptPage from "~/routes/account/receipt.tsx";
import * as verifyPage from "~/routes/public/licence-verify.tsx";
import { renderCertificatePdf, renderReceiptPdf } from "~/services/licensing/documents-pdf.server.ts";
import { getCertificate, getReceipt, receiptNumber, verifyLicence } from "~/services/licensing/documents.server.ts";
import { completeRefund } from "~/services/commerce/refunds.server.ts";
import { createPaidSubscription, createUser, sessionCookieFor } from "../helpers/factories.ts";
import { callRoute } from "../helpers/route.ts";
import { sendToApp } from "../helpers/app.ts";
import { formatDate } from "~/lib/format.ts";
import { createAnimation, createCategory, DAY_MS } from "./account-helpers.ts";
import { pdfText as drawnPdfText } from "../helpers/pdf-text.ts";

const pdfText = (bytes: Uint8Array) => Buffer.from(bytes).toString("latin1");

/**
 * The text drawn in an uncompressed PDF from pdfkit's standard fonts: each line is a TJ array of
 * hex glyph codes (WinAnsi, one byte a character) broken by kerning numbers; joined back here.
 */
function drawnText(bytes: Uint8Array) {
  return [...pdfText(bytes).matchAll(/\[([^\]]*)\] TJ/g)]
    .map(([, parts]) => [...parts!.matchAll(/<([0-9a-f]*)>/gi)].map(([, hex]) => Buffer.from(hex!, "hex").toString("latin1")).join(""))
    .join("\n");
}

/** The page's HTML as the server renders it from the loader's data (a router around it for its links). */
function renderPage(Component: unknown, loaderData: unknown) {
  return renderToString(createElement(MemoryRouter, null, createElement(Component as ComponentType<{ loaderData: unknown }>, { loaderData })));
}

async function licensee(overrides: { firstName?: string; lastName?: string } = {}) {
  const user = await createUser({ firstName: overrides.firstName ?? "Ada", lastName: overrides.lastName ?? "Lovelace" });
  return { user, cookie: await sessionCookieFor(user.id) };
}

async function individualLicence(userId: string, options: Parameters<typeof createPaidSubscription>[1] = {}) {
  const animation = await createAnimation({ title: "Knee Arthroscopy Explained" });
  const paid = await createPaidSubscription(userId, {
    type: "individual",
    animationId: animation.id,
    description: "Individual License: Knee Arthroscopy Explained",
    ...options,
  });
  return { animation, ...paid };
}

describe("receipts", () => {
  it("the owner's receipt: number, buyer, item, amount, status, provider references, platform name", async () => {
    const { user } = await licensee();
    const { payment } = await individualLicence(user.id);
    await prisma.payment.update({ where: { id: payment.id }, data: { stripeInvoiceId: "in_123", stripePaymentIntentId: "pi_456" } });
    await prisma.appSetting.upsert({
      where: { key: "platform_name" },
      create: { key: "platform_name", value: "Medanim Test" },
      update: { value: "Medanim Test" },
    });

    const receipt = await getReceipt(user, payment.id);
    expect(receipt).toMatchObject({
      paymentId: payment.id,
      number: receiptNumber(payment.id),
      buyer: { name: "Ada Lovelace", email: user.email },
      description: "Individual License: Knee Arthroscopy Explained",
      amount: 299,
      currency: "USD",
      status: "completed",
      invoiceId: "in_123",
      paymentIntentId: "pi_456",
    });
    expect(receipt.number).toMatch(/^MED-[0-9A-F]{12}$/);
    expect(receiptNumber(payment.id)).toBe(receipt.number);
    expect(receipt.date.getTime()).toBe(payment.createdAt.getTime());
    // The settings cache may keep the default for a moment: either way it comes from the setting.
    expect(["Medanim", "Medanim Test"]).toContain(receipt.platformName);
  });

  it("someone else's or an unknown payment is 'Payment not found'; an admin may read any", async () => {
    const { user } = await licensee();
    const other = await createUser();
    const admin = await createUser({ role: "admin" });
    const { payment } = await individualLicence(user.id);
    await expect(getReceipt(other, payment.id)).rejects.toMatchObject({ status: 404, message: "Payment not found" });
    await expect(getReceipt(user, crypto.randomUUID())).rejects.toMatchObject({ status: 404, message: "Payment not found" });
    await expect(getReceipt(user, "not-a-uuid")).rejects.toMatchObject({ status: 404, message: "Payment not found" });
    await expect(getReceipt(admin, payment.id)).resolves.toMatchObject({ paymentId: payment.id });
  });

  it("the receipt page: the owner sees it with the PDF link; another user gets 404; anonymous goes to /auth", async () => {
    const { user, cookie } = await licensee();
    const { payment } = await individualLicence(user.id);
    const url = `/billing/receipts/${payment.id}`;

    const own = await callRoute(receiptPage, url, { cookie, params: { paymentId: payment.id } });
    expect(own.status).toBe(200);
    expect(own.body.receipt).toMatchObject({ paymentId: payment.id, amountText: "$299.00", statusText: "Paid" });
    const html = renderPage(receiptPage.default, own.body);
    expect(html).toContain(`Receipt number ${receiptNumber(payment.id)}`);
    expect(html).toContain("Individual License: Knee Arthroscopy Explained");
    expect(html).toContain(`href="/billing/receipts/${payment.id}/pdf"`);

    const other = await createUser();
    const foreign = await callRoute(receiptPage, url, { cookie: await sessionCookieFor(other.id), params: { paymentId: payment.id } });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ message: "Payment not found" });

    const malformed = await callRoute(receiptPage, "/billing/receipts/nope", { cookie, params: { paymentId: "nope" } });
    expect(malformed.status).toBe(404);

    const anonymous = await callRoute(receiptPage, url, { params: { paymentId: payment.id } });
    expect(anonymous.status).toBe(302);
    expect(anonymous.location).toBe(`/auth?redirectTo=${encodeURIComponent(url)}`);
  });

  it("the receipt PDF: a PDF attachment, private, owner only", async () => {
    const { user, cookie } = await licensee();
    const { payment } = await individualLicence(user.id);
    const url = `/billing/receipts/${payment.id}/pdf`;
    const params = { paymentId: payment.id };

    const res = await receiptPdfRoute.loader({ request: new Request(`http://localhost:3000${url}`, { headers: { Cookie: cookie } }), params } as never);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/pdf");
    expect(res.headers.get("Content-Disposition")).toBe(`attachment; filename="medanim-receipt-${payment.id.split("-")[0]}.pdf"`);
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(Number(res.headers.get("Content-Length"))).toBe(bytes.byteLength);
    const text = pdfText(bytes);
    expect(text.startsWith("%PDF-")).toBe(true);
    expect(text.trimEnd().endsWith("%%EOF")).toBe(true);
    expect(text).toContain(`(Receipt ${receiptNumber(payment.id)} - Individual License: Knee Arthroscopy Explained)`);

    const other = await createUser();
    const foreign = await callRoute(receiptPdfRoute, url, { cookie: await sessionCookieFor(other.id), params });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ message: "Payment not found" });
    const anonymous = await callRoute(receiptPdfRoute, url, { params });
    expect(anonymous.status).toBe(302);
    expect(anonymous.location).toBe(`/auth?redirectTo=${encodeURIComponent(url)}`);
  });

  it("an uncompressed receipt PDF carries its fields as drawn text (a real document, not an empty page)", async () => {
    const { user } = await licensee();
    const { payment } = await individualLicence(user.id, { paymentStatus: "refunded", status: "canceled" });
    const receipt = await getReceipt(user, payment.id);
    expect(receipt.status).toBe("refunded");
    const bytes = await renderReceiptPdf(receipt, { compress: false });
    const lines = drawnText(bytes).split("\n");
    for (const drawn of [
      "Receipt",
      "Total",
      "Refunded",
      "Ada Lovelace",
      user.email,
      "$299.00",
      "Individual License: Knee Arthroscopy Explained",
      receipt.number,
    ]) {
      expect(
        lines.some((line) => line.includes(drawn)),
        drawn,
      ).toBe(true);
    }
    expect(pdfText(bytes)).toContain("/BaseFont /Helvetica");
  });
});

describe("licence certificates", () => {
  it("the owner's individual licence: licensee, item, term, id, rights, validity and the verification URL", async () => {
    const { user } = await licensee();
    const { subscription } = await individualLicence(user.id);
    const certificate = await getCertificate(user, subscription.id);
    expect(certificate).toMatchObject({
      id: subscription.id,
      type: "individual",
      typeLabel: "Individual license",
      licensee: "Ada Lovelace",
      seats: 1,
      item: "Knee Arthroscopy Explained",
      state: "valid",
      verifyUrl: `${appUrl()}/licences/${subscription.id}/verify`,
    });
    expect(certificate.startDate?.getTime()).toBe(subscription.startDate?.getTime());
    expect(certificate.endDate?.getTime()).toBe(subscription.endDate?.getTime());
    expect(certificate.rights.join(" ")).toMatch(/Commercial use/);
    expect(certificate.rights.join(" ")).toMatch(/Download/);
    expect(certificate.rights.join(" ")).toMatch(/Premium access/);
  });

  it("a category licence names its category; premium is not a licence; other people's are not found", async () => {
    const { user } = await licensee();
    const category = await createCategory({ name: "Interventional Cardiology" });
    const { subscription: categoryLicence } = await createPaidSubscription(user.id, { type: "category", categoryId: category.id });
    const { subscription: premium } = await createPaidSubscription(user.id, { type: "global" });
    await expect(getCertificate(user, categoryLicence.id)).resolves.toMatchObject({
      type: "category",
      item: "Interventional Cardiology (category)",
    });
    await expect(getCertificate(user, premium.id)).rejects.toMatchObject({ status: 404, message: "License not found" });
    await expect(verifyLicence(premium.id)).rejects.toMatchObject({ status: 404, message: "License not found" });
    const other = await createUser();
    await expect(getCertificate(other, categoryLicence.id)).rejects.toMatchObject({ status: 404, message: "License not found" });
  });

  it("the certificate PDF route: attachment named after the licence, private, owner only", async () => {
    const { user, cookie } = await licensee();
    const { subscription } = await individualLicence(user.id);
    const url = `/licences/${subscription.id}/certificate`;
    const params = { id: subscription.id };

    const res = await sendToApp(url, { headers: new Headers({ Cookie: cookie }) });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/pdf");
    expect(res.headers.get("Content-Disposition")).toBe(`attachment; filename="medanim-licence-${subscription.id.split("-")[0]}.pdf"`);
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    const text = pdfText(new Uint8Array(res.body));
    expect(text.startsWith("%PDF-")).toBe(true);
    expect(text.trimEnd().endsWith("%%EOF")).toBe(true);
    expect(text).toContain("(License Certificate - Knee Arthroscopy Explained)");
    // The verification URL is a real link annotation, not only text.
    expect(text).toContain(`/URI (${appUrl()}/licences/${subscription.id}/verify)`);

    const other = await createUser();
    const foreign = await callRoute(certificateRoute, url, { cookie: await sessionCookieFor(other.id), params });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ message: "License not found" });
    const malformed = await callRoute(certificateRoute, "/licences/x/certificate", { cookie, params: { id: "x" } });
    expect(malformed.status).toBe(404);
    const anonymous = await callRoute(certificateRoute, url, { params });
    expect(anonymous.status).toBe(302);
    expect(anonymous.location).toBe(`/auth?redirectTo=${encodeURIComponent(url)}`);
  });

  it("an uncompressed certificate draws its title, licensee, term and the verification URL; one page", async () => {
    const { user } = await licensee();
    const { subscription } = await individualLicence(user.id);
    const certificate = await getCertificate(user, subscription.id);
    const bytes = await renderCertificatePdf(certificate, { compress: false });
    const text = drawnText(bytes);
    for (const drawn of ["License Certificate", "Ada Lovelace", "Knee Arthroscopy Explained", subscription.id, certificate.verifyUrl, "Commercial use"]) {
      expect(text, drawn).toContain(drawn);
    }
    expect(pdfText(bytes).match(/\/Type \/Page\b/g)).toHaveLength(1);
  });

  it("/billing loads the payments and licences its links point at; /my-animations gives each card the licence behind it", async () => {
    const { user, cookie } = await licensee();
    const { subscription, animation } = await individualLicence(user.id);
    await createPaidSubscription(user.id, { type: "global" });
    const billing = await callRoute(billingPage, "/billing", { cookie });
    expect(billing.status).toBe(200);
    expect(billing.body.payments).toHaveLength(2);
    expect(billing.body.subscriptions.map((s: { type: string }) => s.type).sort()).toEqual(["global", "individual"]);

    const library = await callRoute(libraryPage, "/my-animations", { cookie });
    expect(library.body.animations).toEqual([expect.objectContaining({ id: animation.id, licenceId: subscription.id })]);
  });
});

describe("GET /licences/:id/verify (public)", () => {
  const verify = (id: string) => callRoute(verifyPage, `/licences/${id}/verify`, { params: { id } });

  it("a valid licence, to anyone signed out: the licensee's name, item, type, term and rights; no e-mail", async () => {
    const { user } = await licensee({ firstName: "Grace", lastName: "Hopper" });
    const { subscription } = await individualLicence(user.id);
    const res = await verify(subscription.id);
    expect(res.status).toBe(200);
    expect(verifyPage.headers({} as never)).toEqual({ "Cache-Control": "no-store" });
    expect(res.body.licence).toMatchObject({ valid: true, reason: null });
    const facts = Object.fromEntries(res.body.licence.facts);
    expect(facts).toMatchObject({
      "License id": subscription.id,
      Licensee: "Grace Hopper",
      Covers: "Knee Arthroscopy Explained",
      "License type": "Individual license",
    });
    expect(facts.Rights.split("\n")).toHaveLength(3);
    const everything = JSON.stringify(res.body);
    expect(everything).not.toContain(user.email);
    expect(everything).not.toContain(user.id);
    expect(everything).not.toContain(user.username);
    expect(everything).not.toMatch(/@/);
    const html = renderPage(verifyPage.default, res.body);
    expect(html).toContain("Valid license");
    expect(html).toContain("Grace Hopper");
    expect(html).toContain("Knee Arthroscopy Explained");
    expect(html).not.toContain(user.email);
    expect(html).not.toContain("@");
  });

  it.each([
    ["expired by date (the daily job has not run yet)", { endDate: new Date(Date.now() - DAY_MS) }, "The license term has ended."],
    ["marked expired", { status: "expired" as const, endDate: new Date(Date.now() - DAY_MS) }, "The license term has ended."],
    ["canceled", { status: "canceled" as const }, "The license was canceled."],
  ])("%s: not valid, with why", async (_, options, reason) => {
    const { user } = await licensee();
    const { subscription } = await individualLicence(user.id, options);
    const res = await verify(subscription.id);
    expect(res.status).toBe(200);
    expect(res.body.licence).toMatchObject({ valid: false, reason });
    const html = renderPage(verifyPage.default, res.body);
    expect(html).toContain("This license is not valid");
    expect(html).toContain(reason);
  });

  it("refunded: its payment refunded cancels it, and the page says it was refunded", async () => {
    const { user } = await licensee();
    const { subscription, payment } = await individualLicence(user.id);
    await prisma.payment.update({ where: { id: payment.id }, data: { stripePaymentIntentId: `pi_${payment.id}` } });
    expect((await verify(subscription.id)).body.licence.valid).toBe(true);
    await prisma.$transaction((tx) => completeRefund(tx, `pi_${payment.id}`));
    const res = await verify(subscription.id);
    expect(res.body.licence).toMatchObject({ valid: false, reason: "The license was refunded and canceled." });
  });

  it("an unknown id and a malformed id: 404 'Licence not found'", async () => {
    const unknown = await verify(crypto.randomUUID());
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: "License not found" });
    const malformed = await verify("not-a-licence");
    expect(malformed.status).toBe(404);
    expect(malformed.body).toEqual({ message: "License not found" });
  });
});

describe("certificates that stand up", () => {
  const certificatePdf = async (cookie: string, path: string) => {
    const res = await sendToApp(path, { headers: new Headers({ Cookie: cookie }) });
    return { status: res.status, text: drawnPdfText(res.body, " ").replace(/\s+/g, " "), body: res.body.toString("utf8") };
  };

  it("an individual certificate says 'an individual license' and names the animation, its embed sites, terms version and validity", async () => {
    const { user, cookie } = await licensee();
    const { subscription } = await individualLicence(user.id);
    await prisma.licenceEmbedDomain.createMany({ data: ["clinic.example", "www.clinic.example"].map((host) => ({ subscriptionId: subscription.id, host })) });
    await prisma.payment.updateMany({ where: { subscriptionId: subscription.id }, data: { licenceTermsVersion: 1 } });
    const { status, text } = await certificatePdf(cookie, `/licences/${subscription.id}/certificate`);
    expect(status).toBe(200);
    expect(text).toContain("holds an individual license for");
    expect(text).not.toContain("holds a individual");
    expect(text).toContain("Knee Arthroscopy Explained");
    expect(text).toContain("clinic.example, www.clinic.example");
    expect(text).toContain("License terms, version 1");
    expect(text).toContain(`${formatDate(subscription.startDate)} to ${formatDate(subscription.endDate)}`);
  });

  it("a category certificate lists its animations (the first 25 and a count, the verify page all of them), and one asked for an animation names it", async () => {
    const { user, cookie } = await licensee();
    const category = await createCategory({ name: "Electrophysiology" });
    const sub = await createCategory({ name: "Coronary Stents", parentId: category.id });
    const titles = Array.from({ length: 27 }, (_, i) => `Cardiac Animation ${String(i + 1).padStart(2, "0")}`);
    const animations: { id: string }[] = [];
    for (const [i, title] of titles.entries()) animations.push(await createAnimation({ title, categoryId: i % 2 ? sub.id : category.id }));
    const elsewhere = await createAnimation({ title: "Not In This Category" });
    const { subscription } = await createPaidSubscription(user.id, { type: "category", categoryId: category.id });
    await prisma.licenceEmbedDomain.create({ data: { subscriptionId: subscription.id, host: "heart-clinic.example" } });

    const whole = await certificatePdf(cookie, `/licences/${subscription.id}/certificate`);
    expect(whole.text).toContain("holds a category license for");
    expect(whole.text).toContain("Electrophysiology (category)");
    expect(whole.text).toContain("27 animations on the day of issue");
    expect(whole.text).toContain("Cardiac Animation 25");
    expect(whole.text).not.toContain("Cardiac Animation 26");
    expect(whole.text).toContain("and 2 more animations");
    expect(whole.text).toContain("heart-clinic.example");
    expect(whole.text).not.toContain("Not In This Category");

    const one = await certificatePdf(cookie, `/licences/${subscription.id}/certificate?animation=${animations[26]!.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toContain("(License Certificate - Cardiac Animation 27)");
    expect(one.text).toContain("as part of the license for Electrophysiology (category)");
    const notCovered = await callRoute(certificateRoute, `/licences/${subscription.id}/certificate?animation=${elsewhere.id}`, {
      cookie,
      params: { id: subscription.id },
    });
    expect(notCovered.status).toBe(404);
    expect(notCovered.body).toEqual({ message: "This license does not cover that animation" });
    const malformed = await callRoute(certificateRoute, `/licences/${subscription.id}/certificate?animation=nope`, { cookie, params: { id: subscription.id } });
    expect(malformed.status).toBe(404);

    // The public page: the same facts, and the whole list the certificate points at.
    const page = await callRoute(verifyPage, `/licences/${subscription.id}/verify`, { params: { id: subscription.id } });
    expect(page.body.licence.animations).toEqual({ titles, total: 27 });
    for (const [label, value] of page.body.licence.facts as [string, string][]) {
      if (label === "Rights") continue;
      expect(whole.text, label).toContain(value);
    }
    const html = renderPage(verifyPage.default, page.body);
    expect(html).toContain("Cardiac Animation 27");
    expect(html).toContain("heart-clinic.example");

    // My Animations' "Certificate for …" link of each card names its own animation.
    const library = await callRoute(libraryPage, "/my-animations", { cookie });
    const card = library.body.animations.find((a: { id: string }) => a.id === animations[3]!.id);
    expect(card.licenceId).toBe(subscription.id);
  });
});
