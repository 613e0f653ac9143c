import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { REFRESH_RULE, signUpRule } from "~/lib/rate-limit.server.ts";
import * as forgotPassword from "~/routes/api/auth.forgot-password.ts";
import * as refresh from "~/routes/api/auth.refresh.ts";
import * as register from "~/routes/api/auth.register.ts";
import * as resendVerification from "~/routes/api/auth.resend-verification.ts";
import * as contact from "~/routes/api/contact.ts";
import * as reportMisuse from "~/routes/api/report-misuse.ts";
import { CONTACT_RULE } from "~/services/site/content.server.ts";
import { MISUSE_REPORT_RULE } from "~/services/admin/misuse-reports.server.ts";
import { accessTokenFor, createUser } from "../helpers/factories.ts";
import { createAnimation } from "../helpers/catalogue.ts";
import { callRoute } from "../helpers/route.ts";

// Every write a caller can make without being signed in (and the verification mail, which
// costs a mail per call) is limited in the database: past its limit it answers 429 with the one
// error shape and Retry-After, and writes nothing. The counters are set at their limit directly
// rather than by sending the limit's worth of requests first.

const CLIENT = "198.51.100.7";
const HOUR = 60 * 60;

/** Puts `key`'s counter at `limit` for the rest of a window of `windowMs`. */
async function exhaust(key: string, limit: number, windowMs: number) {
  await prisma.rateLimit.upsert({
    where: { key },
    update: { count: limit, resetAt: new Date(Date.now() + windowMs) },
    create: { key, count: limit, resetAt: new Date(Date.now() + windowMs) },
  });
}

async function expectRefused(res: Awaited<ReturnType<typeof callRoute>>, windowSeconds: number) {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ message: expect.stringMatching(/^Too many attempts\. Please try again in \d+ minutes?\.$/) });
  const retryAfter = Number(res.headers.get("Retry-After"));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
}

describe("unauthenticated writes past their limit", () => {
  it("POST /api/contact", async () => {
    await exhaust(`contact:${CLIENT}`, CONTACT_RULE.limit, CONTACT_RULE.windowMs);
    const before = await prisma.contactMessage.count();
    const res = await callRoute(contact, "/api/contact", {
      clientIp: CLIENT,
      json: { name: "Ada", email: "ada@example.com", subject: "Licences", category: "billing", message: "Can a licence cover two clinics?" },
    });
    await expectRefused(res, HOUR);
    expect(await prisma.contactMessage.count()).toBe(before);
  });

  it("POST /api/report-misuse", async () => {
    const animation = await createAnimation({ title: "Limited Animation" });
    await exhaust(`misuse-report:${CLIENT}`, MISUSE_REPORT_RULE.limit, MISUSE_REPORT_RULE.windowMs);
    const res = await callRoute(reportMisuse, "/api/report-misuse", {
      clientIp: CLIENT,
      json: {
        animationId: animation.id,
        animationTitle: animation.title,
        reporterEmail: "watcher@example.com",
        message: "This animation is on a clinic website without a licence.",
        link: "https://clinic.example.com/video",
      },
    });
    // Its own words: when to try again, and the abuse mailbox to write to meanwhile.
    expect(res.status).toBe(429);
    expect(res.body).toEqual({
      message: expect.stringMatching(/^Too many reports from your address\. Please try again in \d+ minutes? or contact \S+@\S+ directly\.$/),
    });
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(Number(res.headers.get("Retry-After"))).toBeLessThanOrEqual(HOUR);
    expect(await prisma.misuseReport.count({ where: { animationId: animation.id } })).toBe(0);
  });

  it("POST /api/auth/forgot-password", async () => {
    const user = await createUser();
    await exhaust(`forgot:client:${CLIENT}`, 20, HOUR * 1000);
    const res = await callRoute(forgotPassword, "/api/auth/forgot-password", { clientIp: CLIENT, json: { email: user.email } });
    await expectRefused(res, HOUR);
    expect(await prisma.oneTimeToken.count({ where: { userId: user.id, purpose: "reset_password" } })).toBe(0);
  });

  it("POST /api/auth/register", async () => {
    const rule = signUpRule();
    await exhaust(`signup:${CLIENT}`, rule.limit, rule.windowMs);
    const res = await callRoute(register, "/api/auth/register", {
      clientIp: CLIENT,
      json: {
        firstName: "Grace",
        lastName: "Hopper",
        username: "grace_limited",
        email: "grace.limited@example.com",
        password: "secret12",
        confirmPassword: "secret12",
        agreeToTerms: true,
      },
    });
    await expectRefused(res, HOUR);
    expect(await prisma.user.count({ where: { email: "grace.limited@example.com" } })).toBe(0);
  });

  it("POST /api/auth/refresh", async () => {
    await exhaust(`refresh:${CLIENT}`, REFRESH_RULE.limit, REFRESH_RULE.windowMs);
    const res = await callRoute(refresh, "/api/auth/refresh", { clientIp: CLIENT, json: { refreshToken: "not-a-token" } });
    await expectRefused(res, REFRESH_RULE.windowMs / 1000);
    // Another client is not affected by this one's limit.
    const other = await callRoute(refresh, "/api/auth/refresh", { clientIp: "198.51.100.8", json: { refreshToken: "not-a-token" } });
    expect(other.status).toBe(401);
  });

  it("POST /api/auth/resend-verification (signed in, but a mail per call)", async () => {
    const user = await createUser({ isEmailVerified: false });
    await exhaust(`verify-mail:${user.id}`, 5, HOUR * 1000);
    const res = await callRoute(resendVerification, "/api/auth/resend-verification", { method: "POST", token: await accessTokenFor(user.id) });
    await expectRefused(res, HOUR);
  });
});
