import { beforeAll, describe, expect, it } from "vitest";
import { createRouteTable } from "~/lib/route-table.server.ts";
import { prisma } from "~/lib/db.server.ts";
import { DESCRIPTION_MAX } from "~/lib/seo.ts";
import { ROUTE_RULES } from "~/route-rules.ts";
import { hashToken } from "~/lib/crypto.server.ts";
import { unsubscribeUrl } from "~/services/admin/email-campaigns.server.ts";
import { sendToApp, testApp } from "../helpers/app.ts";
import { createAnimation, createCatalogue } from "../helpers/catalogue.ts";
import { createPaidSubscription, createUser, sessionCookieFor } from "../helpers/factories.ts";

// Every page route of app/routes.ts, fetched through the app's front door as an anonymous
// visitor, must carry its own head: one <title>, a description of its own, one absolute
// canonical URL and the robots its kind calls for. A page route this file does not know fails,
// so a route added without head data is caught the day it is added.

const ORIGIN = new URL(process.env.APP_URL ?? "http://localhost:3000").origin;
const ROOT_DESCRIPTION = "Medical and plastic-surgery animations for patient education.";

type Robots = "index" | "noindex" | "noindex, follow";
/** A public page: where to fetch it with sample data, where its canonical must point, its robots. */
type Sample = { path: () => string; canonical: () => string; robots: Robots };

let c: Awaited<ReturnType<typeof createCatalogue>>;
let licenceId = "";
let unsubscribePath = "";
let invitationPath = "";
let adminHeaders = new Headers();

const page = (path: string, robots: Robots = "index", canonical = path): Sample => ({ path: () => path, canonical: () => canonical, robots });

const SAMPLES: Record<string, Sample> = {
  "/": page("/?page=2&utm_source=newsletter", "index", "/"),
  "/auth": page("/auth?mode=signup", "index", "/auth"),
  "/search": page("/search?q=rhinoplasty&page=2", "noindex, follow", "/search"),
  "/animations/:slug": page("/animations/rhinoplasty?utm_campaign=x", "index", "/animations/rhinoplasty"),
  "/category/:slug": page("/category/plastic-surgery"),
  "/category/:mainSlug/:subSlug": page("/category/plastic-surgery/facial-procedures"),
  "/category/:mainSlug/:subSlug/:animationSlug": page("/category/plastic-surgery/facial-procedures/rhinoplasty", "index", "/animations/rhinoplasty"),
  "/doctors/:slugOrId": page("/doctors/jane-smith"),
  "/premium": page("/premium"),
  "/individual-license": page("/individual-license?animation=rhinoplasty", "index", "/individual-license"),
  "/category-license": page("/category-license?category=facial-procedures", "index", "/category-license"),
  "/global-license": page("/global-license"),
  "/help": page("/help?q=licence", "index", "/help"),
  "/contact": page("/contact"),
  "/about": page("/about"),
  "/pages/:slug": page("/pages/privacy", "index", "/privacy"),
  "/:slug": page("/privacy"),
  "/verify-email": page("/verify-email", "noindex"),
  "/unsubscribe": { path: () => unsubscribePath, canonical: () => "/unsubscribe", robots: "noindex" },
  "/forgot-password": page("/forgot-password", "noindex"),
  "/reset-password": page("/reset-password", "noindex"),
  // An invitation's e-mailed link: anyone holding it sees the practice and the role, never indexed.
  "/practice/invitations/:token": { path: () => invitationPath, canonical: () => invitationPath, robots: "noindex" },
  "/licences/:id/verify": { path: () => `/licences/${licenceId}/verify`, canonical: () => `/licences/${licenceId}/verify`, robots: "noindex" },
};

/** Pages that only send a visitor elsewhere: no head of their own (the second sign-in step without its cookie). */
const REDIRECTS = new Set(["/sign-out", "/animation/:slug", "/legacy/category/:slug", "/auth/two-step"]);
/** The not-found screen. */
const CATCH_ALL = "/*";
/** Private pages: an anonymous visitor (or crawler) is sent to sign in before any head is sent. */
const PRIVATE = [
  /^\/admin(\/|$)/,
  /^\/auth\/step-up$/,
  /^\/(dashboard|my-animations|downloads|billing|profile|notifications|refund)(\/|$)/,
  /^\/practice$/,
  /^\/(watch|purchase|checkout)\//,
  /^\/licences\/:id(\/patient-links\/:linkId\/card)?$/,
];
/**
 * Pages that stand alone for a patient (a bare document, no site head): never indexed, no
 * canonical or social preview that would advertise a private link.
 */
const PATIENT_PAGES = new Set(["/p/:token"]);

beforeAll(async () => {
  c = await createCatalogue();
  await prisma.page.createMany({
    data: [
      { title: "About Us", slug: "about", content: "<p>We make medical animations that surgeons use to explain procedures.</p>" },
      {
        title: "Privacy Policy",
        slug: "privacy",
        type: "legal",
        content: "<p>How we handle your data.</p>",
        metaDescription: "What we collect, why, and your rights over it.",
      },
    ],
  });
  adminHeaders = new Headers({ Cookie: await sessionCookieFor((await createUser({ role: "admin" })).id) });
  const user = await createUser();
  licenceId = (await createPaidSubscription(user.id, { type: "individual", animationId: c.rhinoplasty.id })).subscription.id;
  const link = new URL(unsubscribeUrl(user.id, "newsletter"));
  unsubscribePath = `${link.pathname}${link.search}`;
  // An invitation as its e-mail carries it (its token's hash is what the row keeps).
  const practice = await prisma.practice.create({ data: { legalName: "Klinik am See", address: "Seestrasse 5", country: "DE" } });
  const token = "seo-head-invitation-token-0123456789";
  await prisma.practiceInvitation.create({
    data: { practiceId: practice.id, email: "invitee@example.com", role: "viewer", tokenHash: hashToken(token), expiresAt: new Date(Date.now() + 86_400_000) },
  });
  invitationPath = `/practice/invitations/${token}`;
});

// ---- reading the head ----

function decode(value: string) {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

function attributes(tag: string) {
  const out: Record<string, string> = {};
  for (const [, name, value] of tag.matchAll(/([a-zA-Z:-]+)="([^"]*)"/g)) out[name!.toLowerCase()] = decode(value!);
  return out;
}

export function readHead(html: string) {
  const head = html.slice(0, html.indexOf("</head>"));
  const metas = [...head.matchAll(/<meta\b[^>]*>/g)].map(([tag]) => attributes(tag));
  const links = [...head.matchAll(/<link\b[^>]*>/g)].map(([tag]) => attributes(tag));
  const named = (name: string) => metas.filter((m) => m.name === name || m.property === name).map((m) => m.content ?? "");
  return {
    titles: [...head.matchAll(/<title>([^<]*)<\/title>/g)].map(([, text]) => decode(text!)),
    named,
    links: (rel: string) => links.filter((l) => l.rel === rel),
    jsonLd: [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(([, json]) => JSON.parse(json!) as Record<string, unknown>),
    hreflang: links.filter((l) => "hreflang" in l),
  };
}

async function fetchHead(path: string) {
  const response = await sendToApp(path, {});
  const html = response.body.toString();
  return { status: response.status, html, head: readHead(html) };
}

// ---- every page route ----

describe("every page route of app/routes.ts has a head of its own", async () => {
  const { build } = await testApp();
  const table = createRouteTable(build, ROUTE_RULES);
  const pages = table.routes.filter((route) => route.part === "pages" && (build.routes[route.id]!.module as { default?: unknown }).default);
  const seen = new Set<string>();

  for (const route of pages) {
    const pattern = route.pattern;
    if (seen.has(`${pattern} ${route.id}`)) continue;
    seen.add(`${pattern} ${route.id}`);
    const sample = SAMPLES[pattern];

    if (sample) {
      it(`${pattern}: title, description, canonical and robots (${sample.robots})`, async () => {
        const { status, head } = await fetchHead(sample.path());
        expect(status, sample.path()).toBe(200);
        expect(head.titles).toHaveLength(1);
        expect(head.titles[0]!.trim()).not.toBe("");
        const descriptions = head.named("description");
        expect(descriptions).toHaveLength(1);
        expect(descriptions[0]!.length).toBeGreaterThan(20);
        expect(descriptions[0]!.length).toBeLessThanOrEqual(DESCRIPTION_MAX);
        expect(descriptions[0]).not.toBe(ROOT_DESCRIPTION);
        expect(head.links("canonical").map((l) => l.href)).toEqual([`${ORIGIN}${sample.canonical()}`]);
        const robots = head.named("robots");
        if (sample.robots === "index") expect(robots).toEqual([]);
        else expect(robots).toEqual([sample.robots]);
        expect(head.hreflang).toEqual([]);
        // Social previews on every page: absolute URL, site name, locale.
        expect(head.named("og:url")).toEqual([`${ORIGIN}${sample.canonical()}`]);
        expect(head.named("og:site_name")).toEqual(["Medanim"]);
        expect(head.named("og:locale")).toEqual(["en_US"]);
        expect(head.named("og:title")).toHaveLength(1);
        expect(head.named("twitter:card")).toHaveLength(1);
      });
    } else if (REDIRECTS.has(pattern)) {
      it(`${pattern}: redirects, no page of its own`, async () => {
        const response = await sendToApp(pattern.replace(/:\w+/g, "rhinoplasty"), {});
        expect(response.status).toBeGreaterThanOrEqual(301);
        expect(response.status).toBeLessThan(400);
      });
    } else if (pattern === CATCH_ALL) {
      it(`${pattern}: the not-found page answers 404`, async () => {
        expect((await fetchHead("/no/such/page/here")).status).toBe(404);
      });
    } else if (PATIENT_PAGES.has(pattern)) {
      it(`${pattern}: for a patient alone, noindex and nothing that advertises it`, async () => {
        const response = await sendToApp(pattern.replace(/:\w+/g, "A".repeat(43)), {});
        expect(response.headers.get("x-robots-tag")).toContain("noindex");
        const head = readHead(response.body.toString());
        expect(head.named("robots")).toEqual(["noindex, nofollow"]);
        expect(head.links("canonical")).toEqual([]);
        expect(head.named("og:url")).toEqual([]);
      });
    } else if (PRIVATE.some((re) => re.test(pattern))) {
      it(`${pattern}: private, an anonymous visitor is sent to sign in, a signed-in one gets noindex`, async () => {
        const path = pattern.replace(/:\w+/g, "00000000-0000-4000-8000-000000000000");
        const response = await sendToApp(path, {});
        expect(response.status, pattern).toBeGreaterThanOrEqual(300);
        expect(response.status, pattern).toBeLessThan(400);
        const signedIn = await sendToApp(path, { headers: adminHeaders });
        // Some send even an admin on (a redirect); every page that renders says noindex.
        if (signedIn.status < 300 || signedIn.status >= 400) expect(readHead(signedIn.body.toString()).named("robots"), pattern).toEqual(["noindex"]);
      });
    } else {
      it(`${pattern} (${route.id}) is classified`, () => {
        expect.fail(`${pattern} is a page route this test does not know: give it head data (lib/seo.ts) and a sample here, or classify it`);
      });
    }
  }
});

// ---- structured data ----

function ofType(things: Array<Record<string, unknown>>, type: string) {
  return things.filter((thing) => thing["@type"] === type);
}

describe("JSON-LD", () => {
  it("an animation: a MedicalWebPage about the procedure, its current review, the public preview as VideoObject, breadcrumbs", async () => {
    const { head } = await fetchHead("/category/plastic-surgery/facial-procedures/rhinoplasty");
    const [webPage] = ofType(head.jsonLd, "MedicalWebPage");
    expect(webPage).toMatchObject({
      "@context": "https://schema.org",
      name: "Rhinoplasty",
      url: `${ORIGIN}/animations/rhinoplasty`,
      about: { "@type": "MedicalProcedure", name: "Rhinoplasty" },
      reviewedBy: { "@type": "Person", name: "Dr. Jane Smith", url: `${ORIGIN}/doctors/jane-smith`, jobTitle: "Plastic Surgeon" },
      lastReviewed: c.rhinoplasty.medicallyReviewedAt!.toISOString().slice(0, 10),
    });
    const video = webPage!.video as Record<string, string>;
    // Google's required video properties, and the recommended ones this page has data for.
    expect(video).toMatchObject({
      "@type": "VideoObject",
      name: "Rhinoplasty",
      description: "Overview Reshaping the nose under general anaesthesia.",
      thumbnailUrl: `${ORIGIN}${c.rhinoplasty.coverImage}/og.jpg`,
      uploadDate: c.rhinoplasty.createdAt.toISOString(),
      duration: "PT10S",
      contentUrl: `${ORIGIN}${c.rhinoplasty.previewVideo}`,
    });
    expect(Number.isNaN(Date.parse(video.uploadDate!))).toBe(false);
    // The embed plays only for a licence holder: no embedUrl is promised to everybody.
    expect(video).not.toHaveProperty("embedUrl");
    const [trail] = ofType(head.jsonLd, "BreadcrumbList");
    expect(
      (trail!.itemListElement as Array<{ position: number; name: string; item: string }>).map(({ position, name, item }) => [position, name, item]),
    ).toEqual([
      [1, "Home", `${ORIGIN}/`],
      [2, "Plastic Surgery", `${ORIGIN}/category/plastic-surgery`],
      [3, "Facial Procedures", `${ORIGIN}/category/plastic-surgery/facial-procedures`],
      [4, "Rhinoplasty", `${ORIGIN}/animations/rhinoplasty`],
    ]);
  });

  it("an animation without a current review claims none", async () => {
    const { head } = await fetchHead("/animations/tummy-tuck");
    const [webPage] = ofType(head.jsonLd, "MedicalWebPage");
    expect(webPage).toBeDefined();
    expect(webPage).not.toHaveProperty("reviewedBy");
    expect(webPage).not.toHaveProperty("lastReviewed");
  });

  it("an animation's social preview: the 1200×630 cover, the public preview as og:video, oEmbed discovery", async () => {
    const { head } = await fetchHead("/animations/rhinoplasty");
    expect(head.named("og:type")).toEqual(["video.other"]);
    expect(head.named("og:image")).toEqual([`${ORIGIN}${c.rhinoplasty.coverImage}/og.jpg`]);
    expect(head.named("og:image:width")).toEqual(["1200"]);
    expect(head.named("og:image:height")).toEqual(["630"]);
    expect(head.named("og:image:alt")).toEqual(["Rhinoplasty: cover image"]);
    expect(head.named("og:video")).toEqual([`${ORIGIN}${c.rhinoplasty.previewVideo}`]);
    expect(head.named("twitter:card")).toEqual(["summary_large_image"]);
    const [oembed] = head.links("alternate").filter((l) => l.type === "application/json+oembed");
    const href = new URL(oembed!.href);
    expect(href.pathname).toBe("/api/oembed");
    expect(href.searchParams.get("url")).toBe(`${ORIGIN}/animations/rhinoplasty`);
    // What the link promises: with a licence added by the licensee's tool it answers; without, 404.
    expect((await sendToApp(`${href.pathname}${href.search}`, {})).status).toBe(404);
  });

  it("a doctor: a Person with name, url, specialty and bio", async () => {
    const { head } = await fetchHead("/doctors/jane-smith");
    const [person] = ofType(head.jsonLd, "Person");
    expect(person).toMatchObject({
      "@context": "https://schema.org",
      name: "Dr. Jane Smith",
      url: `${ORIGIN}/doctors/jane-smith`,
      jobTitle: "Plastic Surgeon",
    });
    expect((person!.description as string).startsWith("Board-certified plastic surgeon.")).toBe(true);
    expect((person!.description as string).length).toBeLessThanOrEqual(DESCRIPTION_MAX);
  });

  it("the home page: the Organization and the WebSite with its SearchAction on /search?q=", async () => {
    const { head } = await fetchHead("/");
    expect(ofType(head.jsonLd, "Organization")).toEqual([
      { "@context": "https://schema.org", "@type": "Organization", name: "Medanim", url: `${ORIGIN}/`, logo: `${ORIGIN}/icon-512.png` },
    ]);
    const [site] = ofType(head.jsonLd, "WebSite");
    expect(site).toMatchObject({
      name: "Medanim",
      url: `${ORIGIN}/`,
      potentialAction: {
        "@type": "SearchAction",
        target: { "@type": "EntryPoint", urlTemplate: `${ORIGIN}/search?q={search_term_string}` },
        "query-input": "required name=search_term_string",
      },
    });
    // The template's query parameter is the one /search reads.
    const search = await fetchHead("/search?q=rhinoplasty");
    expect(search.html).toContain("Rhinoplasty");
    // Where the action leads is a page of its own; its result lists are not.
    expect(search.head.named("robots")).toEqual(["noindex, follow"]);
    expect((await fetchHead("/search")).head.named("robots")).toEqual([]);
  });

  it("text from the database cannot close the script element", async () => {
    await createAnimation({ title: "Bypass </script><script>alert(1)</script>", slug: "script-in-title", categoryId: c.cardiology.id });
    const { html, head } = await fetchHead("/animations/script-in-title");
    expect(html).not.toContain("</script><script>alert(1)");
    expect(ofType(head.jsonLd, "MedicalWebPage")[0]!.name).toBe("Bypass </script><script>alert(1)</script>");
  });
});
