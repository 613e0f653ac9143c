import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { getEnv } from "~/lib/env.server.ts";
import * as contactApi from "~/routes/api/contact.ts";
import * as contactPage from "~/routes/public/contact.tsx";
import { createUser, sessionCookieFor } from "../helpers/factories.ts";
import { callRoute } from "../helpers/route.ts";
import { useMailCapture } from "../helpers/mail-capture.ts";

const smtp = useMailCapture();

const valid = {
  name: "Ada Lovelace",
  email: "ada@example.com",
  subject: "Cannot play a video",
  category: "technical",
  message: "The heart valve animation stops after ten seconds.",
};

describe("POST /api/contact", () => {
  it("stores the message and e-mails it to the support address", async () => {
    const res = await callRoute(contactApi, "/api/contact", { json: valid });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe("Thank you! Your message has been sent. Our team will respond within 24 hours.");
    const stored = await prisma.contactMessage.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(stored).toMatchObject({ ...valid, userId: null });

    const mail = smtp.received.find((m) => m.subject.includes("Cannot play a video"));
    expect(mail?.to).toEqual([getEnv().SUPPORT_EMAIL]);
    expect(mail?.subject).toBe("[Contact] Cannot play a video");
    expect(mail?.text).toContain("ada@example.com");
    expect(mail?.text).toContain("Technical Support");
    expect(mail?.text).toContain("The heart valve animation stops after ten seconds.");
    const log = await prisma.emailLog.findFirst({ where: { subject: "[Contact] Cannot play a video" } });
    expect(log?.status).toBe("sent");
  });

  it("escapes what the visitor typed in the e-mail's HTML", async () => {
    await callRoute(contactApi, "/api/contact", { json: { ...valid, subject: "Escaping check", message: "<script>alert(1)</script> please" } });
    const mail = smtp.received.find((m) => m.subject.includes("Escaping check"));
    const htmlPart = mail!.text.split(/Content-Type: text\/html/i)[1]!;
    expect(htmlPart).not.toContain("<script>alert(1)</script>");
    expect(htmlPart).toContain("&lt;script&gt;");
  });

  it("links the message to the signed-in user", async () => {
    const user = await createUser();
    const res = await callRoute(contactApi, "/api/contact", { json: { ...valid, subject: "From a member" }, cookie: await sessionCookieFor(user.id) });
    expect(res.status).toBe(201);
    expect((await prisma.contactMessage.findUniqueOrThrow({ where: { id: res.body.id } })).userId).toBe(user.id);
  });

  it.each([
    [{ name: "" }, "name", "Name is required"],
    [{ name: "   " }, "name", "Name is required"],
    [{ email: "not-an-email" }, "email", "Must be a valid email"],
    [{ subject: "" }, "subject", "Subject is required"],
    [{ category: "" }, "category", "Category is required"],
    [{ category: "sales" }, "category", "Category is required"],
    [{ message: "too short" }, "message", "Message must be at least 10 characters"],
  ])("answers 400 with the form's message for %o", async (change, field, message) => {
    const before = await prisma.contactMessage.count();
    const res = await callRoute(contactApi, "/api/contact", { json: { ...valid, ...change } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(res.body.errors[field]).toEqual([message]);
    expect(await prisma.contactMessage.count()).toBe(before);
  });

  it("answers 400 with every field's message for an empty body", async () => {
    const res = await callRoute(contactApi, "/api/contact", { json: {} });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({
      name: ["Name is required"],
      email: ["Must be a valid email"],
      subject: ["Subject is required"],
      category: ["Category is required"],
      message: ["Message must be at least 10 characters"],
    });
  });

  it("answers 400, not 500, to a body that is not JSON", async () => {
    const res = await callRoute(contactApi, "/api/contact", { method: "POST", body: "{nope", headers: { "Content-Type": "application/json" } });
    expect(res.status).toBe(400);
  });

  it("refuses GET with 405", async () => {
    expect((await callRoute(contactApi, "/api/contact")).status).toBe(405);
  });
});

describe("/contact (HTML form)", () => {
  it("shows the support details from settings, with defaults", async () => {
    const res = await callRoute(contactPage, "/contact");
    expect(res.body.support).toMatchObject({ email: "support@medanim.com", hours: "Mon-Fri 9AM-5PM PST" });
    await prisma.appSetting.create({ data: { key: "support_phone", value: "+1 (555) 999-0000" } });
    const again = await callRoute(contactPage, "/contact");
    expect(again.body.support.phone).toBe("+1 (555) 999-0000");
    expect(again.body.prefill).toEqual({ name: "", email: "" });
  });

  it("prefills name and email for a signed-in user", async () => {
    const user = await createUser({ firstName: "Grace", lastName: "Hopper", email: "grace@example.com" });
    const res = await callRoute(contactPage, "/contact", { cookie: await sessionCookieFor(user.id) });
    expect(res.body.prefill).toEqual({ name: "Grace Hopper", email: "grace@example.com" });
  });

  it("stores and mails a valid message, then redirects to the success text", async () => {
    const res = await callRoute(contactPage, "/contact", { form: { ...valid, subject: "Via the form" } });
    expect(res.status).toBe(303);
    expect(res.location).toBe("/contact?sent=1");
    expect(await prisma.contactMessage.count({ where: { subject: "Via the form" } })).toBe(1);
    expect(smtp.received.some((m) => m.subject === "[Contact] Via the form")).toBe(true);
    const page = await callRoute(contactPage, "/contact?sent=1");
    expect(page.body.sent).toBe(true);
  });

  it("answers 400 with the field messages and keeps the input", async () => {
    const res = await callRoute(contactPage, "/contact", { form: { ...valid, email: "bad", message: "short" } });
    expect(res.status).toBe(400);
    expect(res.body.result.error).toEqual({ email: ["Must be a valid email"], message: ["Message must be at least 10 characters"] });
    expect(res.body.result.initialValue).toMatchObject({ name: "Ada Lovelace", subject: valid.subject });
  });
});

describe("contact rate limit", () => {
  it("refuses more than 10 valid messages an hour from one address with 429", async () => {
    let res;
    for (let i = 0; i < 12; i++) {
      res = await callRoute(contactApi, "/api/contact", { json: { ...valid, subject: `Flood ${i}` } });
      if (res.status === 429) break;
    }
    expect(res!.status).toBe(429);
    expect(res!.body.message).toMatch(/^Too many attempts/);
    expect(res!.headers.get("Retry-After")).toBeTruthy();
    const form = await callRoute(contactPage, "/contact", { form: { ...valid, subject: "Flood form" } });
    expect(form.status).toBe(429);
    expect(form.body.result.error[""]).toEqual([expect.stringMatching(/^Too many attempts/)]);
  });
});
