import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { vatIdInvalid } from "~/validation/invoicing.ts";
import {
  INVITATION_EXPIRED,
  INVITATION_OTHER_EMAIL,
  INVITATION_USED,
  INVITEE_IN_ANOTHER_PRACTICE,
  LAST_OWNER,
  MANAGERS_ONLY,
  OWNERS_ONLY,
  seatsFull,
} from "~/validation/practices.ts";
import { createCatalogue } from "../helpers/catalogue.ts";
import { accessTokenFor, createUser, sessionCookieFor } from "../helpers/factories.ts";
import { sendToApp } from "../helpers/app.ts";
import { useMailCapture } from "../helpers/mail-capture.ts";
import { findLink } from "../helpers/mail-parse.ts";
import { pdfText } from "../helpers/pdf-text.ts";

// Practices through the front door (decision 030): pages as a browser without JavaScript posts
// them, /api calls as a client sends them, the invitation taken from the e-mail it arrived in,
// the licence bought in test mode for the practice.

const mail = useMailCapture();
let catalogue: Awaited<ReturnType<typeof createCatalogue>>;
beforeAll(async () => {
  catalogue = await createCatalogue();
});

type Person = { user: { id: string; email: string }; cookie: string; token: string };

async function person(): Promise<Person> {
  const user = await createUser();
  return { user, cookie: await sessionCookieFor(user.id), token: await accessTokenFor(user.id) };
}

async function api(method: string, path: string, who: Person, body?: unknown) {
  const headers = new Headers({ Authorization: `Bearer ${who.token}`, Accept: "application/json" });
  if (body !== undefined) headers.set("Content-Type", "application/json");
  const response = await sendToApp(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = response.body.toString("utf8");
  return { status: response.status, body: (text ? JSON.parse(text) : null) as Record<string, any> };
}

/** A page form posted as a browser without JavaScript does. */
async function post(path: string, who: Person, form: Record<string, string>) {
  return sendToApp(path, {
    method: "POST",
    headers: new Headers({ Cookie: who.cookie, "Content-Type": "application/x-www-form-urlencoded" }),
    body: new URLSearchParams(form).toString(),
  });
}

async function page(path: string, who: Person) {
  const response = await sendToApp(path, { headers: new Headers({ Cookie: who.cookie }) });
  return { status: response.status, html: response.body.toString("utf8"), location: response.headers.get("Location") };
}

const DETAILS = { legalName: "Klinik am See GmbH", address: "Seestrasse 5\n80802 München", country: "de", taxId: "de 123 456 789", billingEmail: "" };

/** The owner founds the practice on /practice; its id. */
async function foundPractice(owner: Person, details = DETAILS) {
  const created = await post("/practice", owner, { intent: "create", ...details });
  expect(created.status, created.body.toString("utf8").slice(0, 400)).toBe(302);
  return (await api("GET", "/api/practices", owner)).body.practice.id as string;
}

/** The owner invites on /practice; the invitee accepts from the link in the e-mail. */
async function join(practiceOwner: Person, invitee: Person, role: "owner" | "manager" | "viewer") {
  const before = mail.to(invitee.user.email).length;
  const sent = await post("/practice", practiceOwner, { intent: "invite", email: invitee.user.email, role });
  expect(sent.status, sent.body.toString("utf8").slice(0, 400)).toBe(302);
  const link = await invitationLink(invitee.user.email, before + 1);
  const accepted = await post(new URL(link).pathname, invitee, {});
  expect(accepted.status).toBe(302);
  expect(accepted.headers.get("Location")).toBe("/practice");
}

async function invitationLink(address: string, count: number) {
  await expect.poll(() => mail.to(address).length).toBe(count);
  const message = mail.to(address).at(-1)!;
  expect(message.text).toContain("invited you to join");
  return findLink(message.text, "/practice/invitations/")!;
}

/** A category licence bought for the practice in test mode, as the checkout's pay button does. */
async function buyForPractice(buyer: Person, categorySlug: string) {
  const started = await post(`/purchase/category/${categorySlug}?for=practice`, buyer, { intent: "checkout" });
  expect(started.status, started.body.toString("utf8").slice(0, 400)).toBe(303);
  const checkoutId = /\/checkout\/test\/([0-9a-f-]{36})$/.exec(started.headers.get("Location") ?? "")![1]!;
  const paid = await post(`/checkout/test/${checkoutId}`, buyer, { intent: "pay" });
  expect(paid.status).toBe(303);
  return prisma.subscription.findFirstOrThrow({ where: { userId: buyer.user.id, status: "active" }, orderBy: { createdAt: "desc" } });
}

describe("a practice of three", () => {
  it("owns a category licence its viewer plays and downloads but cannot buy for or add a site to; the certificate and invoice name the practice", async () => {
    const [owner, manager, viewer] = [await person(), await person(), await person()];
    const practiceId = await foundPractice(owner);
    await join(owner, manager, "manager");
    await join(owner, viewer, "viewer");

    const checkout = await page(`/purchase/category/${catalogue.facial.slug}?for=practice`, owner);
    expect(checkout.html).toContain("Klinik am See GmbH (3 seats)");
    const licence = await buyForPractice(owner, catalogue.facial.slug);
    expect(licence).toMatchObject({ practiceId, seats: 3, type: "category" });

    // The viewer holds it: full video and download through the /api as through the pages.
    const animation = await api("GET", `/api/animations/${catalogue.rhinoplasty.slug}`, viewer);
    expect(animation.body).toMatchObject({ hasAccess: true, canDownload: true });
    expect(((await api("GET", "/api/dashboard/animations", viewer)).body as unknown as Array<{ slug: string }>).map((a: { slug: string }) => a.slug)).toContain(
      catalogue.rhinoplasty.slug,
    );
    const certificate = await sendToApp(`/licences/${licence.id}/certificate`, { headers: new Headers({ Cookie: viewer.cookie }) });
    expect(certificate.status).toBe(200);
    const certificateText = pdfText(certificate.body, " ");
    expect(certificateText).toContain("Klinik am See GmbH");
    expect(certificateText).toContain("3 people of the practice");

    // …but neither buys for the practice nor adds its sites, nor sees its billing.
    const buy = await api("POST", "/api/subscriptions/category", viewer, { categoryId: catalogue.body.slug, forPractice: true });
    expect(buy).toMatchObject({ status: 403, body: { message: MANAGERS_ONLY } });
    const site = await post("/my-animations", viewer, { intent: "add-domain", licenceId: licence.id, host: "klinik.example" });
    expect(site.status).toBe(403);
    expect(site.body.toString("utf8")).toContain(MANAGERS_ONLY);
    expect((await page("/billing", viewer)).html).not.toContain("Licenses of Klinik am See GmbH");
    const receipt = await prisma.payment.findFirstOrThrow({ where: { subscriptionId: licence.id } });
    expect((await page(`/billing/receipts/${receipt.id}`, viewer)).status).toBe(404);

    // The manager adds the site and sees the billing, its invoice made out to the practice.
    expect((await post("/my-animations", manager, { intent: "add-domain", licenceId: licence.id, host: "klinik.example" })).status).toBe(302);
    const billing = await page("/billing", manager);
    expect(billing.html).toContain("Licenses of Klinik am See GmbH");
    const invoices = (await api("GET", "/api/invoices", manager)).body as Array<{ id: string; description: string }>;
    expect(invoices).toHaveLength(1);
    expect(invoices[0]!.description).toBe("Category license: Facial Procedures, for Klinik am See GmbH (3 seats)");
    const invoice = (await api("GET", `/api/invoices/${invoices[0]!.id}`, manager)).body;
    expect(invoice.buyer).toMatchObject({ name: "Klinik am See GmbH", country: "DE", taxId: "DE123456789" });
    expect((await api("GET", `/api/invoices/${invoices[0]!.id}`, viewer)).status).toBe(404);

    // A fourth person does not fit the three seats.
    const fourth = await person();
    const refused = await api("POST", `/api/practices/${practiceId}/invitations`, owner, { email: fourth.user.email, role: "viewer" });
    expect(refused).toMatchObject({ status: 409, body: { message: seatsFull(3) } });
    const onPage = await post("/practice", owner, { intent: "invite", email: fourth.user.email, role: "viewer" });
    expect(onPage.status).toBe(409);
    expect(onPage.body.toString("utf8")).toContain("cover 3 people");

    // Removed, the viewer's very next request has no access.
    const removed = await api("DELETE", `/api/practices/${practiceId}/members/${viewer.user.id}`, owner);
    expect(removed).toMatchObject({ status: 200, body: { message: "Member removed" } });
    expect((await api("GET", `/api/animations/${catalogue.rhinoplasty.slug}`, viewer)).body).toMatchObject({ hasAccess: false, canDownload: false });
    expect((await sendToApp(`/licences/${licence.id}/certificate`, { headers: new Headers({ Cookie: viewer.cookie }) })).status).toBe(404);
    expect((await api("GET", `/api/practices/${practiceId}`, viewer)).status).toBe(404);

    // The back office finds the practice by a member's e-mail, with its members, licence and invoice;
    // its users screen names each member's practice. A member gets no back office at all.
    const admin: Person = await (async () => {
      const user = await createUser({ role: "admin" }, { secondFactor: true });
      return { user, cookie: await sessionCookieFor(user.id), token: await accessTokenFor(user.id) };
    })();
    const list = await page(`/admin/practices?search=${encodeURIComponent(manager.user.email)}`, admin);
    expect(list.status).toBe(200);
    for (const text of ["Klinik am See GmbH", "DE123456789", manager.user.email, "Category: Facial Procedures · 3 seats", "INV-"])
      expect(list.html).toContain(text);
    expect((await page(`/admin/users?search=${encodeURIComponent(owner.user.email)}`, admin)).html).toContain("Klinik am See GmbH");
    expect((await page("/admin/practices", owner)).location).toBe("/");

    // Every change is in the audit log.
    const actions = (await prisma.auditLog.findMany({ where: { entityType: "practice", entityId: practiceId }, select: { action: true } })).map(
      (a) => a.action,
    );
    expect(actions).toEqual(expect.arrayContaining(["practice.create", "practice.invite", "practice.join", "practice.remove"]));
  });
});

describe("seats", () => {
  it("a practice of four pays for a fourth seat at the settings' price, and its licence covers four", async () => {
    const people = [await person(), await person(), await person(), await person()];
    const [owner, ...others] = people;
    await foundPractice(owner!, { ...DETAILS, legalName: "Praxis Vier", taxId: "" });
    // Without a licence yet, nothing limits the members: the first licence is sized to them.
    for (const other of others) await join(owner!, other, "viewer");
    const checkout = await page(`/purchase/category/${catalogue.body.slug}?for=practice`, owner!);
    // Body Contouring at the default 299, and one seat beyond the three included at 49.
    expect(checkout.html).toContain("4 seats (3 included, 1 more at $49.00 each)");
    expect(checkout.html).toContain("$348");
    const licence = await buyForPractice(owner!, catalogue.body.slug);
    expect(licence).toMatchObject({ seats: 4 });
    expect(Number(licence.price)).toBe(348);
  });
});

describe("managing the members", () => {
  it("hands the practice over, and never leaves it without an owner", async () => {
    const [owner, colleague] = [await person(), await person()];
    const practiceId = await foundPractice(owner, { ...DETAILS, legalName: "Praxis Nord", taxId: "" });
    await join(owner, colleague, "viewer");

    expect(await api("DELETE", `/api/practices/${practiceId}/members/${owner.user.id}`, owner)).toMatchObject({ status: 409, body: { message: LAST_OWNER } });
    expect(await api("PATCH", `/api/practices/${practiceId}/members/${owner.user.id}`, owner, { role: "viewer" })).toMatchObject({
      status: 409,
      body: { message: LAST_OWNER },
    });
    expect(await api("PATCH", `/api/practices/${practiceId}/members/${owner.user.id}`, colleague, { role: "viewer" })).toMatchObject({
      status: 403,
      body: { message: OWNERS_ONLY },
    });

    const transferred = await post("/practice", owner, { intent: "transfer", userId: colleague.user.id });
    expect(transferred.status).toBe(302);
    const view = (await api("GET", `/api/practices/${practiceId}`, colleague)).body;
    expect(view.members.map((m: { email: string; role: string }) => [m.email, m.role]).sort()).toEqual(
      [
        [colleague.user.email, "owner"],
        [owner.user.email, "manager"],
      ].sort(),
    );
    // The former owner, now a manager, may leave; the practice keeps its owner.
    expect(await api("DELETE", `/api/practices/${practiceId}/members/${owner.user.id}`, owner)).toMatchObject({
      status: 200,
      body: { message: "You left the practice" },
    });
    expect((await api("GET", "/api/practices", owner)).body).toEqual({ practice: null });
  });
});

describe("bad input gets its reason and changes nothing", () => {
  it("a VAT id in the wrong shape", async () => {
    const owner = await person();
    const refused = await post("/practice", owner, { intent: "create", ...DETAILS, taxId: "123456789" });
    expect(refused.status).toBe(400);
    expect(refused.body.toString("utf8")).toContain(vatIdInvalid("DE"));
    const { billingEmail: _none, ...json } = DETAILS;
    const byApi = await api("POST", "/api/practices", owner, { ...json, taxId: "FR123" });
    expect(byApi.status, JSON.stringify(byApi.body)).toBe(400);
    expect(byApi.body.errors.taxId).toEqual([vatIdInvalid("DE")]);
    expect(await prisma.practiceMember.count({ where: { userId: owner.user.id } })).toBe(0);
  });

  it("an expired, a reused and a misaddressed invitation; someone already in another practice", async () => {
    const [owner, invitee, stranger] = [await person(), await person(), await person()];
    const practiceId = await foundPractice(owner, { ...DETAILS, legalName: "Praxis Süd", taxId: "" });
    const sent = await api("POST", `/api/practices/${practiceId}/invitations`, owner, { email: invitee.user.email, role: "viewer" });
    expect(sent).toMatchObject({ status: 201, body: { email: invitee.user.email, role: "viewer" } });
    const token = new URL(await invitationLink(invitee.user.email, 1)).pathname.split("/").at(-1)!;

    // Anyone with the link sees what it is; only its addressee may accept it.
    const anonymous = await sendToApp(`/practice/invitations/${token}`, {});
    expect(anonymous.body.toString("utf8")).toContain("Join Praxis Süd");
    expect(anonymous.body.toString("utf8")).toContain("Sign in to accept");
    expect(await api("POST", "/api/practices/invitations/accept", stranger, { token })).toMatchObject({
      status: 403,
      body: { message: INVITATION_OTHER_EMAIL(invitee.user.email) },
    });

    await prisma.practiceInvitation.update({ where: { id: sent.body.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await api("POST", "/api/practices/invitations/accept", invitee, { token })).toMatchObject({ status: 410, body: { message: INVITATION_EXPIRED } });
    await prisma.practiceInvitation.update({ where: { id: sent.body.id }, data: { expiresAt: new Date(Date.now() + 60_000) } });
    expect(await api("POST", "/api/practices/invitations/accept", invitee, { token })).toMatchObject({ status: 200, body: { practiceName: "Praxis Süd" } });
    expect(await api("POST", "/api/practices/invitations/accept", invitee, { token })).toMatchObject({ status: 410, body: { message: INVITATION_USED } });

    // The stranger founds a practice of their own: the invitee cannot be invited there.
    const elsewhere = await foundPractice(stranger, { ...DETAILS, legalName: "Praxis West", taxId: "" });
    expect(await api("POST", `/api/practices/${elsewhere}/invitations`, stranger, { email: invitee.user.email })).toMatchObject({
      status: 409,
      body: { message: INVITEE_IN_ANOTHER_PRACTICE },
    });
    // Nor can an outsider read or change the first practice.
    expect((await api("GET", `/api/practices/${practiceId}`, stranger)).status).toBe(404);
  });
});
