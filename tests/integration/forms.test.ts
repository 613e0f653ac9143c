import { beforeAll, describe, expect, it } from "vitest";
import { createRouteTable, samplePath } from "~/lib/route-table.server.ts";
import { ROUTE_RULES } from "~/route-rules.ts";
import { createCatalogue } from "../helpers/catalogue.ts";
import { sendToApp, testApp } from "../helpers/app.ts";
import { createPaidSubscription, createUser, sessionCookieFor } from "../helpers/factories.ts";
import { useMailCapture } from "../helpers/mail-capture.ts";

// Every form the server renders carries `novalidate` (components/ui/form.tsx). Without it a
// browser without JavaScript refuses to send a form it finds invalid and says so in its own words
// ("Please include an '@' in the email address"); with it the server checks, and the spec's message
// ("Invalid email address") shows next to the field. Generated from app/routes.ts: every page,
// asked through the app's front door as a visitor, a member and an admin, so a page added later is
// walked the day it is added.

const mail = useMailCapture();

/** The forms the spec's messages are checked on (tests/e2e): the walk must reach each of them. */
const CHECKED_FORMS = ["signin", "signup", "contact", "forgot-password", "reset-password", "misuse-report", "profile", "refund"];

const WHO = ["a visitor", "a member", "an admin"] as const;
type Who = (typeof WHO)[number];
const cookies: Record<Who, string | undefined> = { "a visitor": undefined, "a member": undefined, "an admin": undefined };
/** Path patterns filled with rows that exist, so the page renders its form rather than "not found". */
let known: Record<string, string> = {};
/** Pages that render another form with a query string. */
let extras: string[] = [];

beforeAll(async () => {
  const c = await createCatalogue();
  const member = await createUser();
  const admin = await createUser({ role: "admin" });
  // A payment of yesterday: /refund shows its form.
  const { payment } = await createPaidSubscription(member.id);
  cookies["a member"] = await sessionCookieFor(member.id);
  cookies["an admin"] = await sessionCookieFor(admin.id);
  const forgot = await sendToApp("/forgot-password", {
    method: "POST",
    headers: new Headers({ "content-type": "application/x-www-form-urlencoded", origin: new URL(process.env.APP_URL ?? "http://localhost:3000").origin }),
    body: new URLSearchParams({ email: member.email }).toString(),
  });
  expect(forgot.status).toBeLessThan(400);
  const resetToken = await mail.tokenFrom(member.email, "/reset-password");
  known = {
    "/animations/:slug": `/animations/${c.rhinoplasty.slug}`,
    "/category/:slug": `/category/${c.plastic.slug}`,
    "/category/:mainSlug/:subSlug": `/category/${c.plastic.slug}/${c.facial.slug}`,
    "/category/:mainSlug/:subSlug/:animationSlug": `/category/${c.plastic.slug}/${c.facial.slug}/${c.rhinoplasty.slug}`,
    "/doctors/:slugOrId": `/doctors/${c.smith.slug}`,
    "/billing/receipts/:paymentId": `/billing/receipts/${payment.id}`,
    "/watch/:id": `/watch/${c.rhinoplasty.id}`,
    "/purchase/individual/:idOrSlug": `/purchase/individual/${c.rhinoplasty.slug}`,
    "/purchase/category/:slugOrId": `/purchase/category/${c.facial.slug}`,
    "/admin/animations/:id": `/admin/animations/${c.rhinoplasty.id}`,
    "/admin/animations/:id/medical": `/admin/animations/${c.rhinoplasty.id}/medical`,
    "/admin/categories/:id": `/admin/categories/${c.facial.id}`,
    "/admin/doctors/:id": `/admin/doctors/${c.smith.id}`,
    "/admin/users/:id/email": `/admin/users/${member.id}/email`,
  };
  extras = ["/auth?mode=signup", `/reset-password?token=${encodeURIComponent(resetToken)}`];
}, 120_000);

type Page = { path: string; status: number; forms: string[] };

/** The HTML page at `path` as `who` sees it, and its <form> start tags. */
async function formsOn(path: string, who: Who): Promise<Page> {
  const headers = new Headers({ Accept: "text/html" });
  if (cookies[who]) headers.set("Cookie", cookies[who]!);
  const response = await sendToApp(path, { headers });
  const html = (response.headers.get("content-type") ?? "").startsWith("text/html") ? response.body.toString() : "";
  return { path, status: response.status, forms: [...html.matchAll(/<form\b[^>]*>/gi)].map((match) => match[0]) };
}

/** React writes the attribute as `noValidate=""`; HTML's attribute names are case-insensitive. */
const NOVALIDATE = /\snovalidate(=""|\s|>)/i;

describe("every form the server renders leaves checking to the app (novalidate)", async () => {
  const { build } = await testApp();
  const pages = createRouteTable(build, ROUTE_RULES).routes.filter(
    (route) => route.part === "pages" && (build.routes[route.id]!.module as { default?: unknown }).default,
  );
  const rendered = {} as Record<Who, Page[]>;

  beforeAll(async () => {
    const paths = [...new Set([...pages.map((route) => known[route.pattern] ?? samplePath(route.pattern)), ...extras])];
    for (const who of WHO) rendered[who] = await Promise.all(paths.map((path) => formsOn(path, who)));
  }, 120_000);

  it("walks every page of app/routes.ts", () => {
    expect(pages.length).toBeGreaterThan(50);
  });

  for (const who of WHO) {
    it(`every form has novalidate, as ${who}`, () => {
      const missing = rendered[who].flatMap(({ path, forms }) => forms.filter((tag) => !NOVALIDATE.test(tag)).map((tag) => `${path}: ${tag}`));
      expect(missing).toEqual([]);
    });
  }

  // A page whose render throws shows the error page, with no form to check: a walk that passed
  // over it would prove nothing about its forms.
  for (const who of WHO) {
    it(`every page renders (no 5xx), as ${who}`, () => {
      expect(rendered[who].filter(({ status }) => status >= 500).map(({ path }) => path)).toEqual([]);
    });
  }

  it("the walk reached the forms whose messages the e2e tests check", () => {
    const seen = new Set(Object.values(rendered).flatMap((walk) => walk.flatMap(({ forms }) => forms.map((tag) => /\sid="([^"]+)"/.exec(tag)?.[1]))));
    expect(CHECKED_FORMS.filter((id) => !seen.has(id))).toEqual([]);
  });
});
