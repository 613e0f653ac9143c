import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import * as billingPage from "~/routes/account/billing.tsx";
import * as settingsPage from "~/routes/admin/settings.tsx";
import * as invoicePdf from "~/routes/account/invoice-pdf.ts";
import * as invoicePage from "~/routes/account/invoice.tsx";
import * as refundDecision from "~/routes/api/admin/refund-requests.decide.ts";
import * as billingDetailsApi from "~/routes/api/billing-details.ts";
import * as invoiceApi from "~/routes/api/invoices.id.ts";
import * as invoicesApi from "~/routes/api/invoices.ts";
import * as testPage from "~/routes/checkout/test.tsx";
import * as premium from "~/routes/public/premium.tsx";
import * as purchase from "~/routes/account/purchase.tsx";
import { REVERSE_CHARGE_NOTE } from "~/services/commerce/invoices.server.ts";
import { TAX_RATES_INVALID, vatIdInvalid } from "~/validation/invoicing.ts";
import { createCatalogue } from "../helpers/catalogue.ts";
import { accessTokenFor, createUser, sessionCookieFor } from "../helpers/factories.ts";
import { sendToApp } from "../helpers/app.ts";
import { useMailCapture } from "../helpers/mail-capture.ts";
import { pdfText } from "../helpers/pdf-text.ts";
import { callRoute } from "../helpers/route.ts";

// Tax invoices and credit notes through the front door: a test-mode purchase issues the invoice,
// the member's billing details and the seller's settings decide what it prints, a refund issues
// the credit note, and numbers stay gapless under concurrent payments.

const mail = useMailCapture();

const SELLER = {
  sellerLegalName: "Medanim Test GmbH",
  sellerAddress: "Invalidenstrasse 1\n10115 Berlin",
  sellerTaxId: "de811111111",
  sellerCountry: "de",
  taxRates: "DE=19, FR=20",
};

/** The seller's details, as the owner saves them on /admin/settings → Invoices. */
async function saveSeller(values: Record<string, string> = SELLER) {
  const admin = await createUser({ role: "admin" });
  return callRoute(settingsPage, "/admin/settings", { form: { intent: "invoicing", ...values }, cookie: await sessionCookieFor(admin.id) });
}

async function setSettings(values: Record<string, string>) {
  expect((await saveSeller(values)).location).toBe("/admin/settings");
}

async function buyer() {
  const user = await createUser();
  return { user, cookie: await sessionCookieFor(user.id), token: await accessTokenFor(user.id) };
}

/** Premium bought in test mode, as a browser without JavaScript does: the new invoice's id. */
async function buyPremium(cookie: string) {
  const started = await callRoute(premium, "/premium", { form: { intent: "checkout" }, cookie });
  const checkoutId = /\/checkout\/test\/([0-9a-f-]{36})$/.exec(started.location ?? "")![1]!;
  const paid = await callRoute(testPage, `/checkout/test/${checkoutId}`, { form: { intent: "pay" }, params: { checkoutId }, cookie });
  expect(paid.status, JSON.stringify(paid.body).slice(0, 600)).toBe(303);
}

async function invoicesOf(token: string) {
  const answer = await callRoute(invoicesApi, "/api/invoices", { token });
  expect(answer.status).toBe(200);
  return answer.body as Array<{ id: string; kind: string; number: string; total: number }>;
}

describe("an invoice for every payment", () => {
  it("prints the seller's and the business buyer's details and tax ids, splits the tax, and goes with the receipt mail", async () => {
    await setSettings(SELLER);
    const { user, cookie, token } = await buyer();
    const saved = await callRoute(billingPage, "/billing", {
      form: {
        intent: "billing-details",
        legalName: "Klinik am See GmbH",
        address: "Seestrasse 5\n80802 München",
        country: "de",
        taxId: "de 123 456 789",
        billingEmail: "",
      },
      cookie,
    });
    expect(saved.location).toBe("/billing#billing-details");
    // An API client's empty billing e-mail means none, as the emptied form field does: not a 400.
    const viaApi = await sendToApp("/api/billing-details", {
      method: "PUT",
      headers: new Headers({ Authorization: `Bearer ${token}`, "Content-Type": "application/json" }),
      body: JSON.stringify({ legalName: "Klinik am See GmbH", address: "Seestrasse 5\n80802 München", country: "DE", taxId: "DE123456789", billingEmail: "" }),
    });
    expect(viaApi.status).toBe(200);
    await buyPremium(cookie);

    const [invoice] = await invoicesOf(token);
    expect(invoice).toMatchObject({ kind: "invoice", number: expect.stringMatching(/^INV-\d{6}$/), total: 99 });
    const detail = (await callRoute(invoiceApi, `/api/invoices/${invoice!.id}`, { token })).body;
    expect(detail).toMatchObject({
      seller: { name: "Medanim Test GmbH", taxId: "DE811111111" },
      buyer: { name: "Klinik am See GmbH", country: "DE", taxId: "DE123456789", email: user.email },
      net: 83.19,
      taxRate: 19,
      tax: 15.81,
      total: 99,
      taxNote: null,
    });
    const billing = await sendToApp("/billing", { headers: new Headers({ Cookie: cookie }) });
    expect(billing.status).toBe(200);
    expect(billing.body.toString("utf8")).toContain(`Invoice ${invoice!.number}`);
    expect(billing.body.toString("utf8")).toContain('value="Klinik am See GmbH"');
    const page = await callRoute(invoicePage, `/billing/invoices/${invoice!.id}`, { cookie });
    expect(page.body.seller).toEqual(["Medanim Test GmbH", "Invalidenstrasse 1", "10115 Berlin", "VAT / Tax ID: DE811111111"]);

    const pdf = await sendToApp(`/billing/invoices/${invoice!.id}/pdf`, { headers: new Headers({ Cookie: cookie }) });
    expect(pdf.headers.get("Content-Type")).toBe("application/pdf");
    const text = pdfText(pdf.body);
    for (const words of [
      "Invoice",
      invoice!.number,
      "Medanim Test GmbH",
      "VAT / Tax ID: DE811111111",
      "Klinik am See GmbH",
      "VAT / Tax ID: DE123456789",
      "Tax (19%)",
      "USD 15.81",
      "USD 99.00",
    ]) {
      expect(text).toContain(words);
    }
    const receipt = mail.to(user.email).find((m) => m.raw.includes("application/pdf"));
    expect(receipt?.raw).toContain(`medanim-${invoice!.number.toLowerCase()}.pdf`);
  });

  it("bills a business elsewhere in the EU by reverse charge, and a member without details by name at the domestic rate", async () => {
    await setSettings(SELLER);
    const business = await buyer();
    const put = await callRoute(billingDetailsApi, "/api/billing-details", {
      method: "PUT",
      json: { legalName: "Clinique du Lac", address: "1 rue du Lac, Annecy", country: "FR", taxId: "FR12345678901" },
      token: business.token,
    });
    expect(put.status).toBe(200);
    await buyPremium(business.cookie);
    const [reverse] = await invoicesOf(business.token);
    expect((await callRoute(invoiceApi, `/api/invoices/${reverse!.id}`, { token: business.token })).body).toMatchObject({
      taxRate: 0,
      tax: 0,
      net: 99,
      taxNote: REVERSE_CHARGE_NOTE,
    });

    const person = await buyer();
    await buyPremium(person.cookie);
    const [plain] = await invoicesOf(person.token);
    expect((await callRoute(invoiceApi, `/api/invoices/${plain!.id}`, { token: person.token })).body).toMatchObject({
      buyer: { name: `${person.user.firstName} ${person.user.lastName}`, email: person.user.email, taxId: null },
      taxRate: 19,
    });
  });

  it("refuses a VAT number in the wrong shape with the reason, on the page and the API, and keeps the details saved before", async () => {
    const { cookie, token } = await buyer();
    const page = await callRoute(billingPage, "/billing", {
      form: { intent: "billing-details", legalName: "Praxis Dr. Weiss", address: "Hauptstr. 1", country: "DE", taxId: "123456789" },
      cookie,
    });
    expect(page.status).toBe(400);
    expect(JSON.stringify(page.body)).toContain(vatIdInvalid("DE"));
    const api = await callRoute(billingDetailsApi, "/api/billing-details", {
      method: "PUT",
      json: { legalName: "Praxis", address: "x", country: "Germany" },
      token,
    });
    expect(api.status).toBe(400);
    expect(api.body.errors.country).toEqual(["Choose the country as a two-letter code, such as DE or US"]);
    expect((await callRoute(billingDetailsApi, "/api/billing-details", { token })).body).toEqual({ billingDetails: null });
  });

  it("is the buyer's own: another member gets 404 for it, page, PDF and API alike", async () => {
    const owner = await buyer();
    await buyPremium(owner.cookie);
    const [invoice] = await invoicesOf(owner.token);
    const stranger = await buyer();
    expect((await callRoute(invoiceApi, `/api/invoices/${invoice!.id}`, { token: stranger.token })).status).toBe(404);
    expect((await callRoute(invoicePdf, `/billing/invoices/${invoice!.id}/pdf`, { cookie: stranger.cookie })).status).toBe(404);
    expect((await callRoute(invoicePage, `/billing/invoices/${invoice!.id}`, { cookie: stranger.cookie })).status).toBe(404);
  });
});

describe("a licence's invoice", () => {
  it("prints the license terms version the purchase accepted", async () => {
    const c = await createCatalogue();
    const { cookie, token } = await buyer();
    const started = await callRoute(purchase, "/purchase/individual/rhinoplasty", {
      params: { idOrSlug: "rhinoplasty" },
      form: { intent: "checkout" },
      cookie,
    });
    const checkoutId = /\/checkout\/test\/([0-9a-f-]{36})$/.exec(started.location ?? "")![1]!;
    await callRoute(testPage, `/checkout/test/${checkoutId}`, { form: { intent: "pay" }, params: { checkoutId }, cookie });
    const [invoice] = await invoicesOf(token);
    const version = (await prisma.payment.findFirstOrThrow({ where: { description: { contains: c.rhinoplasty.title } }, orderBy: { createdAt: "desc" } }))
      .licenceTermsVersion;
    expect(version).toEqual(expect.any(Number));
    expect((await callRoute(invoiceApi, `/api/invoices/${invoice!.id}`, { token })).body.licenceTermsVersion).toBe(version);
    const pdf = await sendToApp(`/billing/invoices/${invoice!.id}/pdf`, { headers: new Headers({ Cookie: cookie }) });
    expect(pdfText(pdf.body)).toContain(`License terms accepted: version ${version}`);
  });
});

describe("the seller's details", () => {
  it("are refused with the reason when a rate table or a country is malformed, and change nothing", async () => {
    const refused = await saveSeller({ ...SELLER, sellerLegalName: "Someone Else Ltd", sellerCountry: "Germany", taxRates: "DE 19 percent" });
    expect(refused.status).toBe(400);
    const text = JSON.stringify(refused.body);
    expect(text).toContain("Choose the country as a two-letter code, such as DE or US");
    expect(text).toContain(TAX_RATES_INVALID);
    expect(await prisma.appSetting.findUnique({ where: { key: "seller_legal_name" } })).not.toMatchObject({ value: "Someone Else Ltd" });
  });

  it("are the owner's to set: a member posting the form is sent away", async () => {
    const member = await buyer();
    const answer = await callRoute(settingsPage, "/admin/settings", { form: { intent: "invoicing", ...SELLER }, cookie: member.cookie });
    expect(answer.location).toBe("/");
  });
});

describe("a credit note for a refund", () => {
  it("credits the invoice with negative amounts under its own series", async () => {
    await setSettings(SELLER);
    const member = await buyer();
    await buyPremium(member.cookie);
    const payment = await prisma.payment.findFirstOrThrow({ where: { userId: member.user.id } });
    const request = await prisma.refundRequest.create({ data: { userId: member.user.id, paymentId: payment.id, reason: "not-satisfied", status: "pending" } });
    const admin = await createUser({ role: "admin" });
    const decided = await callRoute(refundDecision, `/api/admin/refund-requests/${request.id}/approve`, {
      method: "PUT",
      json: { adminNotes: "Refunded as asked." },
      token: await accessTokenFor(admin.id),
    });
    expect(decided.status).toBe(200);
    const [credit, invoice] = await invoicesOf(member.token);
    expect(credit).toMatchObject({ kind: "credit_note", number: expect.stringMatching(/^CN-\d{6}$/), total: -99 });
    expect((await callRoute(invoiceApi, `/api/invoices/${credit!.id}`, { token: member.token })).body).toMatchObject({
      title: "Credit note",
      credits: invoice!.number,
      net: -83.19,
      tax: -15.81,
    });
  });
});

describe("invoice numbers", () => {
  it("stay gapless and unique across 50 payments at once", async () => {
    const before = (await prisma.invoiceCounter.findUnique({ where: { series: "INV" } }))?.next ?? 1;
    const buyers = await Promise.all(Array.from({ length: 50 }, buyer));
    await Promise.all(buyers.map((b) => buyPremium(b.cookie)));
    const numbers = (await prisma.invoice.findMany({ where: { series: "INV", number: { gte: before } }, select: { number: true } }))
      .map((row) => row.number)
      .sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => before + i));
  });
});
