import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { dropAllCaches } from "~/lib/cache-registry.server.ts";
import { resetEnv } from "~/lib/env.server.ts";
import { createAnimation, createCatalogue, grant } from "../helpers/catalogue.ts";
import { createUser, sessionCookieFor } from "../helpers/factories.ts";
import { sendToApp } from "../helpers/app.ts";

// The home page does not hydrate (decision 025): through the app's one door (createApp), its
// document names the static page script in place of React Router's, under the CSP of the
// response it is in, and /home/cards gives the list's next page as the server's card markup.

let c: Awaited<ReturnType<typeof createCatalogue>>;

beforeAll(async () => {
  // The page cache off in this file only: its cases read what a render sends (the response's
  // own nonce admits the script); the kept document's policy is a case of its own below.
  process.env.PAGE_CACHE_MS = "0";
  resetEnv();
  c = await createCatalogue();
  // Three cards a page: the catalogue's four animations make two pages.
  await prisma.appSetting.create({ data: { key: "homepage_animations_per_page", value: "3" } });
});

afterAll(async () => {
  await prisma.appSetting.delete({ where: { key: "homepage_animations_per_page" } });
  delete process.env.PAGE_CACHE_MS;
  resetEnv();
  dropAllCaches();
});

const get = (target: string, headers: Record<string, string> = {}) => sendToApp(target, { headers: new Headers(headers) });
/** A browser's form post without JavaScript: urlencoded, from the site's own origin (the CSRF guard checks it). */
const postForm = (target: string, fields: Record<string, string>) =>
  sendToApp(target, {
    method: "POST",
    headers: new Headers({ "content-type": "application/x-www-form-urlencoded", origin: new URL(process.env.APP_URL ?? "http://localhost:3000").origin }),
    body: new URLSearchParams(fields).toString(),
  });
/** A form control's tag, by its id. */
const controlIn = (html: string, id: string) => new RegExp(`<(?:input|textarea|select)[^>]* id="${id}"[^>]*>`).exec(html)?.[0] ?? "";
/** The messages a control carries for its page script (lib/constraint-messages.ts), unescaped. */
const messagesOf = (html: string, id: string) =>
  JSON.parse((/data-messages="([^"]*)"/.exec(controlIn(html, id))?.[1] ?? "{}").replaceAll("&quot;", '"').replaceAll("&#x27;", "'"));
const scriptSources = (csp: string | null) => /script-src ([^;]*)/.exec(csp ?? "")?.[1] ?? "";
const scriptTags = (html: string) => [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]).filter((tag) => !tag.includes("application/ld+json"));

describe("the home document", () => {
  it("loads the static page script instead of React, admitted by the response's own nonce", async () => {
    const res = await get("/");
    expect(res.status).toBe(200);
    const html = res.body.toString();
    const tags = scriptTags(html);
    expect(tags).toHaveLength(1);
    const [, src, nonce] = /<script type="module" src="([^"]+)" nonce="([^"]+)">/.exec(tags[0]!) ?? [];
    expect(src).toMatch(/static-page\/enhance\.ts$|\/assets\/static-page-[\w-]+\.js$/);
    expect(scriptSources(res.headers.get("content-security-policy"))).toContain(`'nonce-${nonce}'`);
    // No hydration: neither the router's context nor its loader data is in the page.
    expect(html).not.toContain("__reactRouterContext");
    expect(html).not.toContain("streamController");
    // The list's parts the script enhances are in the page.
    expect(html).toContain('id="animation-list"');
    expect(html).toMatch(/<a id="load-more" href="\/\?page=2#page-2"/);
    expect(html).toContain('<template id="skeleton-grid">');
  });

  it("kept by the page cache, its policy admits the same-origin script without a nonce", async () => {
    process.env.PAGE_CACHE_MS = "60000";
    resetEnv();
    dropAllCaches();
    try {
      await get("/");
      const kept = await get("/");
      // A rendered response names a nonce: this one is the kept document's (decision 021).
      const sources = scriptSources(kept.headers.get("content-security-policy"));
      expect(sources).toMatch(/^'self'/);
      expect(sources).not.toMatch(/nonce-|strict-dynamic|unsafe-inline/);
      expect(scriptTags(kept.body.toString())[0]).toMatch(/src="\/[^/]/);
    } finally {
      process.env.PAGE_CACHE_MS = "0";
      resetEnv();
      dropAllCaches();
    }
  });

  it("the category screens, a doctor's page and a content page do not hydrate either", async () => {
    await prisma.page.create({ data: { title: "About Us", slug: "about", content: "Who we are.", type: "company" } });
    for (const target of ["/category/plastic-surgery", "/category/plastic-surgery/facial-procedures", `/doctors/${c.smith.slug}`, "/about"]) {
      const res = await get(target);
      expect(res.status, target).toBe(200);
      const html = res.body.toString();
      expect(html, target).not.toContain("__reactRouterContext");
      expect(scriptTags(html), target).toHaveLength(1);
      // What the script needs for the loading skeleton: the region and the card it clones.
      if (target.startsWith("/category/")) {
        expect(html, target).toContain('data-stand-in-for="^/category/[^/]+(?:/[^/]+)?/?$"');
        expect(html, target).toContain('<template id="skeleton-grid">');
      }
    }
  });

  it("/premium does not hydrate for a visitor (links and text) and hydrates for a member (the checkout)", async () => {
    const visitor = (await get("/premium")).body.toString();
    expect(visitor).not.toContain("__reactRouterContext");
    expect(scriptTags(visitor)).toHaveLength(1);
    const member = await createUser();
    const signedIn = (await get("/premium", { cookie: await sessionCookieFor(member.id) })).body.toString();
    expect(signedIn).toContain("__reactRouterContext");
    // Its loader data too (entry.server.tsx reads the lazily encoded stream only for such pages).
    expect(signedIn).toContain("streamController.enqueue");
    expect(signedIn).not.toMatch(/static-page/);
  });

  it("a page that hydrates still loads React Router's scripts and not the static page script", async () => {
    const member = await createUser();
    const html = (await get("/dashboard", { cookie: await sessionCookieFor(member.id) })).body.toString();
    expect(html).toContain("__reactRouterContext");
    expect(html).not.toMatch(/static-page/);
  });
});

describe("the search page", () => {
  it("does not hydrate: the form its script searches with, the region it fills and its loading grid", async () => {
    for (const target of ["/search", "/search?q=rhinoplasty"]) {
      const html = (await get(target)).body.toString();
      expect(html, target).not.toContain("__reactRouterContext");
      // The shared script, and the page's own (the home page's does not carry the search's code).
      const tags = scriptTags(html);
      expect(tags, target).toHaveLength(2);
      expect(tags[1], target).toMatch(/ src="[^"]*(?:static-page\/search-page\.ts|\/assets\/page-script-search-[\w-]+\.js)" nonce="[^"]+"/);
      expect(html, target).toMatch(/<form role="search"[^>]* data-search-as-you-type="300"[^>]* action="\/search" method="get">/);
      expect(html, target).toContain('<template id="skeleton-grid">');
    }
    const found = (await get("/search?q=rhinoplasty")).body.toString();
    expect(found).toMatch(/<div data-search-found="true">[\s\S]*1 result<!-- --> for “<!-- -->rhinoplasty<!-- -->”[\s\S]*href="\/animations\/rhinoplasty"/);
    expect(found).toMatch(/<p class="text-slate-600" data-search-prompt="true" hidden="">/);
    const blank = (await get("/search")).body.toString();
    expect(blank).toMatch(/<p class="text-slate-600" data-search-prompt="true">Type a procedure/);
    expect(blank).toContain('<div data-search-found="true"></div>');
  });

  it("“More Results” leads to the first card of the page it adds", async () => {
    const knees = Array.from({ length: 25 }, (_, i) => `Knee Procedure ${String(i + 1).padStart(2, "0")}`);
    const { count } = await prisma.animation.createMany({
      data: knees.map((title) => ({ title, slug: title.toLowerCase().replaceAll(" ", "-"), description: `${title}.`, categoryId: c.cardiology.id })),
    });
    expect(count).toBe(25);
    dropAllCaches();
    try {
      const first = (await get("/search?q=knee")).body.toString();
      expect(first).toContain('href="/search?q=knee&amp;page=2#page-2"');
      expect(first).not.toContain('id="page-2"');
      const second = (await get("/search?q=knee&page=2")).body.toString();
      expect(second.match(/data-testid="animation-card"/g)).toHaveLength(25);
      expect(second.match(/<article id="page-2"/g)).toHaveLength(1);
      expect(second).not.toContain("More Results");
    } finally {
      await prisma.animation.deleteMany({ where: { title: { in: knees } } });
      dropAllCaches();
    }
  });
});

describe("the Help Center", () => {
  it("does not hydrate, for visitors and admins: its own script applies the category and counts views", async () => {
    const faq = await prisma.faq.create({ data: { question: "Can clinics embed animations?", answer: "Yes, with a licence.", isActive: true } });
    const admin = await createUser({ role: "admin" });
    try {
      const visitorAndAdmin: Record<string, string>[] = [{}, { cookie: await sessionCookieFor(admin.id) }];
      for (const headers of visitorAndAdmin) {
        const html = (await get("/help", headers)).body.toString();
        expect(html).not.toContain("__reactRouterContext");
        const tags = scriptTags(html);
        expect(tags).toHaveLength(2);
        expect(tags[1]).toMatch(/ src="[^"]*(?:static-page\/help-page\.ts|\/assets\/page-script-help-[\w-]+\.js)" nonce="[^"]+"/);
        expect(html).toMatch(/<select id="help-category" name="category" data-submit-on-change="true"/);
        expect(html).toContain(`data-view-url="/api/faqs/${faq.id}/view"`);
        expect(html).not.toContain("data-viewed");
      }
      // A shared link opens its FAQ and counts the view on the server: the script does not again.
      const linked = (await get(`/help?faq=${faq.id}`)).body.toString();
      expect(linked).toMatch(new RegExp(`<details id="faq-${faq.id}" open=""[^>]* data-view-url="/api/faqs/${faq.id}/view" data-viewed="true"`));
      expect((await prisma.faq.findUniqueOrThrow({ where: { id: faq.id } })).views).toBe(1);
    } finally {
      await prisma.faq.delete({ where: { id: faq.id } });
    }
  });
});

describe("/home/cards", () => {
  it("gives a page of the list as the home page's card markup, saying whether a page follows", async () => {
    const first = await get("/home/cards?page=1");
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toMatch(/^text\/html/);
    expect(first.headers.get("x-robots-tag")).toBe("noindex");
    const firstHtml = first.body.toString();
    expect(firstHtml).toMatch(/^<div data-has-more="true">/);
    expect(firstHtml.match(/data-testid="animation-card"/g)).toHaveLength(3);
    expect(firstHtml).toContain('id="page-1"');

    const second = (await get("/home/cards?page=2")).body.toString();
    expect(second).toMatch(/^<div data-has-more="false">/);
    expect(second.match(/data-testid="animation-card"/g)).toHaveLength(1);
    // The oldest animation, first (and only) card of page 2, is the target of "#page-2".
    expect(second).toMatch(/<article id="page-2"[^>]*>[\s\S]*Rhinoplasty/);
    expect(second).toContain('href="/animations/rhinoplasty"');
    expect(second).toContain("View Full Animation");
  });

  it("narrows by ?category= as the home page does; an unknown category lists nothing", async () => {
    const cardiology = (await get("/home/cards?category=cardiology&page=1")).body.toString();
    expect(cardiology.match(/data-testid="animation-card"/g)).toHaveLength(1);
    expect(cardiology).toContain("Heart Bypass");
    const unknown = await get("/home/cards?category=nope&page=1");
    expect(unknown.status).toBe(200);
    expect(unknown.body.toString()).toBe('<div data-has-more="false"></div>');
  });

  it("words the cards for a member with global access", async () => {
    const member = await createUser();
    await grant(member.id, "global");
    const html = (await get("/home/cards?page=1", { cookie: await sessionCookieFor(member.id) })).body.toString();
    expect(html).toContain("Watch Animation");
    expect(html).not.toContain("View Full Animation");
    expect(html).not.toContain(c.rhinoplasty.fullVideo!);
  });

  it("answers 400 with a message for a page that is not a whole number from 1", async () => {
    for (const page of ["0", "x", "", "1.5"]) {
      const res = await get(`/home/cards?page=${page}`);
      expect(res.status).toBe(400);
      expect(res.body.toString()).toBe("page must be a whole number from 1");
    }
  });
});

describe("the home list after the New shelf", () => {
  const DAY = 24 * 60 * 60 * 1000;
  /** The animations a part of a page shows, by their cards' links, in order. */
  const cardSlugs = (html: string) =>
    [...html.matchAll(/<article\b[^>]*data-testid="animation-card"[^>]*>[\s\S]*?href="\/animations\/([^"]+)"/g)].map((m) => m[1]);
  const shelfOf = (html: string) => /data-testid="new-shelf"[\s\S]*?<\/section>/.exec(html)?.[0] ?? "";
  const listOf = (html: string) => /aria-labelledby="animations-title"[\s\S]*?<\/section>/.exec(html)?.[0] ?? "";

  it("never shows a New shelf's animation again in the list below it, and the list's pages go on after the shelf", async () => {
    // Two animations published this week make the shelf; the catalogue's four (from 2025), newest first, the list.
    const fresh = [
      await createAnimation({ title: "Brow Lift", categoryId: c.facial.id, createdAt: new Date(Date.now() - 2 * DAY) }),
      await createAnimation({ title: "Chin Implant", categoryId: c.facial.id, createdAt: new Date(Date.now() - DAY) }),
    ];
    dropAllCaches();
    try {
      const home = (await get("/")).body.toString();
      expect(cardSlugs(shelfOf(home))).toEqual(["chin-implant", "brow-lift"]);
      // Three cards a page: page 1 of the list starts after the shelf.
      expect(cardSlugs(listOf(home))).toEqual(["heart-bypass", "tummy-tuck", "facelift"]);
      expect(listOf(home)).toContain('href="/?page=2#page-2"');
      // "Load More" with JavaScript: page 2 goes on from there, and is the last.
      const second = (await get("/home/cards?page=2")).body.toString();
      expect(second).toMatch(/^<div data-has-more="false">/);
      expect(cardSlugs(second)).toEqual(["rhinoplasty"]);
      // Without JavaScript: pages 1 and 2 at once, each animation once, and no page 3.
      const both = (await get("/?page=2")).body.toString();
      expect(cardSlugs(shelfOf(both))).toEqual(["chin-implant", "brow-lift"]);
      expect(cardSlugs(listOf(both))).toEqual(["heart-bypass", "tummy-tuck", "facelift", "rhinoplasty"]);
      expect(both).not.toContain("Load More Animations");
      // A category filter hides the shelf: its new animations are in the list.
      const facial = (await get("/?category=facial-procedures")).body.toString();
      expect(facial).not.toContain('data-testid="new-shelf"');
      expect(cardSlugs(listOf(facial))).toEqual(["chin-implant", "brow-lift", "facelift"]);
    } finally {
      await prisma.animation.deleteMany({ where: { id: { in: fresh.map((a) => a.id) } } });
      dropAllCaches();
    }
  });
});

describe("the animation page", () => {
  const pageScript = / src="[^"]*(?:static-page\/animation-page\.ts|\/assets\/page-script-animation-[\w-]+\.js)" nonce="[^"]+"/;

  it("does not hydrate: the parts its own script gives behaviour are in the page, hidden until then", async () => {
    const html = (await get("/animations/rhinoplasty")).body.toString();
    expect(html).not.toContain("__reactRouterContext");
    const tags = scriptTags(html);
    expect(tags).toHaveLength(2);
    expect(tags[1]).toMatch(pageScript);
    // The player, and the offers its preview's end shows (hidden until the preview ends).
    expect(html).toMatch(/<div class="relative" data-player="true">/);
    expect(html).toMatch(
      /<div hidden="" data-preview-end="true"[^>]*>[\s\S]*?Unlock the Full Animation[\s\S]*?Get Premium Access[\s\S]*?<button[^>]* data-replay="true">Replay preview<\/button>/,
    );
    // Share: the copy button is the script's (hidden without it); the sheet gets the title and text.
    expect(html).toMatch(
      /<details class="group relative self-start" data-testid="share" data-share-title="Rhinoplasty" data-share-text="Reshaping the nose under general anaesthesia.">/,
    );
    expect(html).toMatch(/<button type="button" hidden="" data-share-copy="true"[^>]*>Copy link<\/button>/);
    // The misuse report posts the page's own document form.
    expect(html).toMatch(/<form [^>]*id="misuse-report" data-misuse-report="true"[^>]* method="post">/);
  });

  it("a rejected misuse report renders the page again with the form open, the answers and the errors", async () => {
    const res = await postForm("/animations/rhinoplasty", {
      intent: "report-misuse",
      animationId: c.rhinoplasty.id,
      animationTitle: "Rhinoplasty",
      reporterEmail: "",
      message: "",
      link: "https://x.example",
    });
    expect(res.status).toBe(400);
    const html = res.body.toString();
    expect(html).not.toContain("__reactRouterContext");
    expect(html).toMatch(/<details open="" class="rounded-xl border border-slate-200 bg-white" data-testid="misuse-report">/);
    expect(html).toContain("Email is required");
    expect(html).toContain("Message is required");
    expect(html).toContain('value="https://x.example"');
  });

  it("an unknown animation's page says so, with Go Back for the script to send back", async () => {
    const res = await get("/animations/no-such-animation");
    expect(res.status).toBe(404);
    const html = res.body.toString();
    expect(html).toContain("Animation Not Found");
    const back = /<a [^>]*data-history-back="true"[^>]*>Go Back<\/a>/.exec(html)?.[0] ?? "";
    expect(back).toContain('href="/"');
    expect(scriptTags(html)[1]).toMatch(pageScript);
  });
});

describe("pages reached from an e-mail or a certificate", () => {
  it("load no React: /verify-email, /unsubscribe and a licence's verification", async () => {
    for (const target of ["/verify-email?token=not-a-token", "/unsubscribe?token=not-a-token", "/licences/00000000-0000-4000-8000-000000000000/verify"]) {
      const html = (await get(target)).body.toString();
      expect(html, target).not.toContain("__reactRouterContext");
      expect(scriptTags(html), target).toHaveLength(1);
    }
  });

  it("a failed verification's Resend is a form the browser posts itself", async () => {
    const html = (await get("/verify-email?token=not-a-token")).body.toString();
    expect(html).toContain("Verification Failed");
    expect(html).toMatch(
      /<form[^>]* action="\/verify-email\?token=not-a-token" method="post"><button type="submit"[^>]*>Resend Verification Email<\/button><\/form>/,
    );
  });
});

describe("the not-found page", () => {
  it("answers 404 without React, for a visitor and a member alike", async () => {
    const member = await createUser();
    for (const headers of [{}, { cookie: await sessionCookieFor(member.id) }] as Record<string, string>[]) {
      const res = await get("/no-such-page", headers);
      expect(res.status).toBe(404);
      const html = res.body.toString();
      expect(html).toContain(">Page Not Found</h1>");
      expect(html).toMatch(/<a href="\/"[^>]*>Go Home<\/a>/);
      expect(html).not.toContain("__reactRouterContext");
      expect(scriptTags(html)).toHaveLength(1);
    }
  });
});

describe("the contact page", () => {
  it("does not hydrate: each control carries its constraints and the schema's messages for its page script", async () => {
    const html = (await get("/contact")).body.toString();
    expect(html).not.toContain("__reactRouterContext");
    const tags = scriptTags(html);
    expect(tags).toHaveLength(2);
    expect(tags[1]).toMatch(/ src="[^"]*(?:static-page\/form-page\.ts|\/assets\/page-script-form-[\w-]+\.js)" nonce="[^"]+"/);
    expect(html).toMatch(/<form id="contact" data-check="true"[^>]* method="post">/);
    const control = (id: string) => controlIn(html, `contact-${id}`);
    const messages = (id: string) => messagesOf(html, `contact-${id}`);
    expect(messages("name")).toEqual({ valueMissing: "Name is required", tooLong: "Name must be at most 100 characters" });
    expect(messages("email")).toEqual({ valueMissing: "Must be a valid email", typeMismatch: "Must be a valid email", tooLong: "Must be a valid email" });
    expect(messages("subject")).toEqual({ valueMissing: "Subject is required", tooLong: "Subject must be at most 200 characters" });
    expect(messages("category")).toEqual({ valueMissing: "Category is required" });
    expect(messages("message")).toEqual({
      valueMissing: "Message must be at least 10 characters",
      tooShort: "Message must be at least 10 characters",
      tooLong: "Message must be at most 5000 characters",
    });
    expect(control("email")).toMatch(/ type="email"/);
    expect(control("message")).toMatch(/ minLength="10"| minlength="10"/i);
    expect(html).toMatch(/<button type="submit"[^>]* data-pending-text="Sending...">Send Message<\/button>/);
  });

  it("a rejected message renders the page again with the answers and the server's messages", async () => {
    const res = await postForm("/contact", { name: "", email: "not-an-email", subject: "Licences", category: "", message: "short" });
    expect(res.status).toBe(400);
    const html = res.body.toString();
    expect(html).not.toContain("__reactRouterContext");
    for (const message of ["Name is required", "Must be a valid email", "Category is required", "Message must be at least 10 characters"])
      expect(html).toContain(message);
    expect(html).toMatch(
      /<input[^>]* id="contact-email"[^>]* aria-invalid="true" aria-describedby="contact-email-error"[^>]*value="not-an-email"|value="not-an-email"[^>]*aria-invalid="true"/,
    );
    expect(html).toMatch(/<input[^>]* id="contact-subject"[^>]*value="Licences"/);
  });
});

describe("the sign-in page", () => {
  it("does not hydrate: sign-up's controls carry the schema's checks, a pattern, a confirmation and the terms", async () => {
    const html = (await get("/auth?mode=signup")).body.toString();
    expect(html).not.toContain("__reactRouterContext");
    expect(scriptTags(html)[1]).toMatch(/ src="[^"]*(?:static-page\/form-page\.ts|\/assets\/page-script-form-[\w-]+\.js)" nonce="[^"]+"/);
    expect(messagesOf(html, "signup-username")).toEqual({
      valueMissing: "Username must be at least 3 characters",
      tooShort: "Username must be at least 3 characters",
      tooLong: "Username must be at most 30 characters",
      patternMismatch: "Username may contain only letters, digits, dots, dashes and underscores",
    });
    expect(html).toMatch(/<input[^>]* id="signup-username"[^>]* data-trim="true" data-pattern="\^\[a-zA-Z0-9_\.-\]\+\$"/);
    // Its own schema takes any string: only the refinement (the two must be the same) speaks.
    expect(messagesOf(html, "signup-confirmPassword")).toEqual({ mismatch: "Passwords don't match" });
    expect(html).toMatch(/<input[^>]* id="signup-confirmPassword"[^>]* data-same-as="signup-password"/);
    expect(messagesOf(html, "signup-agreeToTerms")).toEqual({ valueMissing: "You must agree to the Terms of Service and Privacy Policy" });
    // The password is checked as typed: its schema does not trim it.
    expect(html).not.toMatch(/<input[^>]* id="signup-password"[^>]* data-trim/);
  });

  it("the passkey button is the script's: without it, the note says passkeys need JavaScript", async () => {
    const html = (await get("/auth")).body.toString();
    expect(html).toMatch(
      /<div class="mt-4 flex flex-col gap-2" data-passkey="sign-in"><p class="text-center text-sm text-slate-600" data-passkey-note="true">Passkeys need JavaScript in your browser.<\/p><button type="button" class="[^"]*" hidden="">Continue with a passkey<\/button>/,
    );
  });

  it("a rejected sign-up renders the page again with the answers (never the passwords) and the messages", async () => {
    const res = await postForm("/auth?mode=signup", {
      intent: "signup",
      firstName: "Grace",
      lastName: "",
      username: "grace!",
      email: "grace@example.com",
      password: "secret1",
      confirmPassword: "secret2",
    });
    expect(res.status).toBe(400);
    const html = res.body.toString();
    expect(html).not.toContain("__reactRouterContext");
    for (const message of [
      "Last name is required",
      "Username may contain only letters, digits, dots, dashes and underscores",
      "Passwords don&#x27;t match",
      "You must agree to the Terms of Service and Privacy Policy",
    ]) {
      expect(html).toContain(message);
    }
    expect(html).toMatch(/<input[^>]* id="signup-firstName"[^>]*value="Grace"/);
    expect(html).not.toContain("secret1");
  });
});

describe("links on a page that does not hydrate", () => {
  it("are plain anchors (nothing follows them client-side); a page that hydrates keeps the router's", async () => {
    const plain = (await get("/animations/rhinoplasty")).body.toString();
    expect(plain).toMatch(/<a href="\/" class="site-logo" aria-label="Medanim home">/);
    // (A form there keeps React Router's markup, data-discover included: no router reads it.)
    expect(plain).not.toMatch(/<a [^>]*data-discover/);
    const member = await createUser();
    const hydrated = (await get("/dashboard", { cookie: await sessionCookieFor(member.id) })).body.toString();
    expect(hydrated).toContain('data-discover="true"');
  });
});
