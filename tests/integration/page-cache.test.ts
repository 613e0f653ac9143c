import crypto from "node:crypto";
import zlib from "node:zlib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { dropAllCaches } from "~/lib/cache-registry.server.ts";
import { resetEnv } from "~/lib/env.server.ts";
import { metrics } from "~/lib/metrics.server.ts";
import { toastHeader } from "~/lib/toast.server.ts";
import { flushViewCounts } from "~/services/catalogue/views.server.ts";
import { createCatalogue } from "../helpers/catalogue.ts";
import { accessTokenFor, createUser, sessionCookieFor } from "../helpers/factories.ts";
import { writeOnAnotherInstance } from "../helpers/another-instance.ts";
import { sendToApp, type WireResponse } from "../helpers/app.ts";

// The rendered-answer cache (lib/page-cache.server.ts, decision 021), through the app's one door
// (createApp, as `npm start` builds it). It is on here as in production, with an age of a minute,
// so only an invalidation (or the age, where a case sets it short) can make a change visible.
// "Kept" is proven the way a visitor would notice it: a row written by another instance (past
// this process's statement hook) does not show until the cache lets go.

let catalogue: Awaited<ReturnType<typeof createCatalogue>>;

function setCache(ms: number | undefined, mb = 64) {
  if (ms === undefined) delete process.env.PAGE_CACHE_MS;
  else process.env.PAGE_CACHE_MS = String(ms);
  // The data caches off in this file only: its cases time the page cache's own age against a
  // write made by another instance, which the data caches' age (CATALOGUE_CACHE_MS) would add to.
  if (ms !== undefined) process.env.CATALOGUE_CACHE_MS = "0";
  else delete process.env.CATALOGUE_CACHE_MS;
  process.env.PAGE_CACHE_MB = String(mb);
  resetEnv();
}

beforeAll(async () => {
  catalogue = await createCatalogue();
});

beforeEach(() => {
  setCache(60_000);
  // Each case starts from an empty cache.
  dropAllCaches();
});

afterAll(() => {
  setCache(undefined);
  dropAllCaches();
});

async function get(target: string, headers: Record<string, string> = {}, method = "GET") {
  return sendToApp(target, { method, headers: new Headers(headers) });
}

/** The support phone the contact page shows, changed by another instance. */
async function setPhoneBehindTheBack(phone: string) {
  await writeOnAnotherInstance(
    `INSERT INTO "AppSetting" ("id", "key", "value", "updatedAt") VALUES (gen_random_uuid(), 'support_phone', $1, now())
     ON CONFLICT ("key") DO UPDATE SET "value" = EXCLUDED."value"`,
    phone,
  );
}

const text = (response: WireResponse) => response.body.toString("utf8");

/** How many pages the cache has had rendered (its misses) so far. */
async function renders() {
  const { values } = await metrics().cacheLookups.get();
  return values.find((v) => v.labels.prefix === "rendered-page" && v.labels.result === "miss")?.value ?? 0;
}

async function waitFor<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 3000) {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("anonymous pages are rendered once and kept", () => {
  it("the second visitor gets the first render's bytes, with a request id of its own", async () => {
    await setPhoneBehindTheBack("+1 555 0100");
    const first = await get("/contact");
    expect(first.status).toBe(200);
    expect(text(first)).toContain("+1 555 0100");
    await setPhoneBehindTheBack("+1 555 0111");
    const second = await get("/contact");
    expect(text(second)).toContain("+1 555 0100");
    expect(text(second)).not.toContain("+1 555 0111");
    expect(second.headers.get("ETag")).toBe(first.headers.get("ETag"));
    expect(second.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers.get("X-Request-Id")).not.toBe(first.headers.get("X-Request-Id"));
    // A CDN may hold it briefly and revalidate in the background; a browser revalidates (304).
    expect(second.headers.get("Cache-Control")).toBe("public, max-age=0, s-maxage=60, stale-while-revalidate=60");
    expect(second.headers.get("Vary")).toBe("Accept-Encoding, Cookie, Authorization");
  });

  it("a write through the app is visible to the next anonymous visitor", async () => {
    await get("/contact");
    const admin = await createUser({ role: "admin" });
    const put = await sendToApp("/api/settings/support_phone", {
      method: "PUT",
      headers: new Headers({ Authorization: `Bearer ${await accessTokenFor(admin.id)}`, "Content-Type": "application/json" }),
      body: JSON.stringify({ value: "+1 555 0122" }),
    });
    expect(put.status).toBe(200);
    expect(text(await get("/contact"))).toContain("+1 555 0122");
  });

  it("past PAGE_CACHE_MS the page is rendered again: a write on another instance shows within that age", async () => {
    // An age a busy machine's second request still falls inside, before its last fifth (the
    // renewal, next case): 300 ms let a slow request land in the renewal and see the new phone.
    setCache(1500);
    await setPhoneBehindTheBack("+1 555 0133");
    await get("/contact");
    await setPhoneBehindTheBack("+1 555 0144");
    expect(text(await get("/contact"))).toContain("+1 555 0133");
    await new Promise((resolve) => setTimeout(resolve, 1550));
    expect(text(await get("/contact"))).toContain("+1 555 0144");
  });

  it("in the last fifth of its age the next visitor renders the page again, once, and it is kept a full age from then", async () => {
    setCache(1000);
    await setPhoneBehindTheBack("+1 555 0177");
    await get("/contact");
    await setPhoneBehindTheBack("+1 555 0188");
    await new Promise((resolve) => setTimeout(resolve, 850));
    // Ten visitors at once: one renders, the others are served (the kept page, or the new one
    // if it was kept before they arrived); nobody waits in a queue behind the render.
    const before = await renders();
    const pages = await Promise.all(Array.from({ length: 10 }, () => get("/contact")));
    expect(pages.every((page) => page.status === 200)).toBe(true);
    expect((await renders()) - before).toBe(1);
    expect(pages.some((page) => text(page).includes("+1 555 0188"))).toBe(true);
    // Past the first render's age, the second is still kept.
    await setPhoneBehindTheBack("+1 555 0199");
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(text(await get("/contact"))).toContain("+1 555 0188");
  });

  it("past PAGE_CACHE_MB the least recently used answers go first", async () => {
    setCache(60_000, 1);
    await setPhoneBehindTheBack("+1 555 0155");
    const kept = await get("/contact?v=0");
    expect(kept.body.length).toBeGreaterThan(5_000);
    // Enough other pages to pass a megabyte of kept bytes.
    const others = Math.ceil((1024 * 1024) / kept.body.length) + 2;
    for (let v = 1; v <= others; v++) await get(`/contact?v=${v}`);
    await setPhoneBehindTheBack("+1 555 0166");
    expect(text(await get("/contact?v=0"))).toContain("+1 555 0166");
    // The most recent one is still kept.
    expect(text(await get(`/contact?v=${others}`))).toContain("+1 555 0155");
  });
});

describe("who never gets a kept page", () => {
  it("a signed-in member gets their own render, and it is never kept for anyone else", async () => {
    const member = await createUser({ firstName: "Zebulon", email: "zebulon@example.com" });
    const cookie = await sessionCookieFor(member.id);
    await get("/contact");
    const signedIn = await get("/contact", { Cookie: cookie });
    expect(text(signedIn)).toContain("zebulon@example.com");
    expect(signedIn.headers.get("Content-Security-Policy")).toMatch(/'nonce-[^']+' 'strict-dynamic'/);
    expect(signedIn.headers.get("ETag")).toBeNull();
    const anonymous = await get("/contact");
    expect(text(anonymous)).not.toContain("zebulon@example.com");
  });

  it("a request with a toast gets its toast, and nobody else sees it", async () => {
    const toast = (await toastHeader({ title: "Only for you", description: "Your message was sent." })).split(";")[0]!;
    const withToast = await get("/contact", { Cookie: toast });
    expect(text(withToast)).toContain("Only for you");
    // Its answer clears the toast: a cookie, so it is not kept either.
    expect(withToast.headers.get("Set-Cookie")).toContain("medanim_toast=;");
    const next = await get("/contact");
    expect(text(next)).not.toContain("Only for you");
    // And with a page kept, a toast still reaches its visitor.
    expect(text(await get("/contact", { Cookie: toast }))).toContain("Only for you");
  });

  it("an /api call with a token is answered for its caller, not from the cache", async () => {
    const admin = await createUser({ role: "admin" });
    const token = await accessTokenFor(admin.id);
    const before = JSON.parse(text(await get("/api/animations?page=1&limit=50")));
    await writeOnAnotherInstance(`UPDATE "Animation" SET "title" = 'Rhinoplasty Behind The Back' WHERE "id" = $1::uuid`, catalogue.rhinoplasty.id);
    try {
      const anonymous = JSON.parse(text(await get("/api/animations?page=1&limit=50")));
      expect(anonymous).toEqual(before);
      const authorised = JSON.parse(text(await get("/api/animations?page=1&limit=50", { Authorization: `Bearer ${token}` })));
      expect(JSON.stringify(authorised)).toContain("Rhinoplasty Behind The Back");
    } finally {
      await prisma.animation.update({ where: { id: catalogue.rhinoplasty.id }, data: { title: "Rhinoplasty" } });
    }
  });

  it("a form post is handled, never answered from the kept page", async () => {
    await get("/contact");
    const post = await sendToApp("/contact", {
      method: "POST",
      headers: new Headers({ "Content-Type": "application/x-www-form-urlencoded", Origin: new URL(process.env.APP_URL ?? "http://localhost:3000").origin }),
      body: "name=&email=not-an-address&subject=&message=",
    });
    expect(post.status).toBe(400);
    expect(text(post)).toContain("Must be a valid email");
  });

  it("routes that are not shared (sign-in, a licence's verification) are rendered every time", async () => {
    const first = await get("/auth");
    expect(first.headers.get("Content-Security-Policy")).toMatch(/'nonce-/);
    expect(first.headers.get("ETag")).toBeNull();
  });
});

/** The sources a policy's script-src names. */
function scriptSources(policy: string) {
  const directive = policy
    .split(";")
    .map((d) => d.trim())
    .find((d) => d.startsWith("script-src "))!;
  return directive.split(/\s+/).slice(1);
}

/** Every inline script's text, found by scanning the document tag by tag (not the cache's expression). */
function inlineScripts(html: string) {
  const scripts: string[] = [];
  let at = 0;
  for (;;) {
    const open = html.indexOf("<script", at);
    if (open < 0) return scripts;
    const tagEnd = html.indexOf(">", open);
    const close = html.indexOf("</script>", tagEnd);
    const attributes = html.slice(open + "<script".length, tagEnd);
    const body = html.slice(tagEnd + 1, close);
    if (!/\ssrc=/.test(attributes) && body.length) scripts.push(body);
    at = close + "</script>".length;
  }
}

describe("a kept document's policy admits exactly its own inline scripts", () => {
  // No page a visitor is kept hydrates any more (decision 025): the home and animation pages hold
  // inline structured data (JSON-LD), hashed all the same; /contact and a category screen hold no
  // inline script at all, so their policy is 'self' alone.
  it.each([
    ["/", true],
    ["/contact", false],
    ["/animations/rhinoplasty", true],
    ["/category/plastic-surgery", false],
  ])("%s", async (path, inline) => {
    const first = await get(path);
    const kept = await get(path);
    expect(kept.status).toBe(200);
    for (const response of [first, kept]) {
      const sources = scriptSources(response.headers.get("Content-Security-Policy")!);
      const expected = inlineScripts(text(response)).map((script) => `'sha256-${crypto.createHash("sha256").update(script).digest("base64")}'`);
      expect(expected.length > 0).toBe(inline);
      // 'self' for the bundle's files; no nonce, no 'unsafe-inline', no 'strict-dynamic'.
      expect(new Set(sources)).toEqual(new Set(["'self'", ...expected]));
    }
  });
});

describe("HEAD, conditional GETs and encodings", () => {
  it("HEAD gets the kept GET's headers and length, without a body", async () => {
    const full = await get("/contact");
    const head = await get("/contact", {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers.get("ETag")).toBe(full.headers.get("ETag"));
    expect(head.headers.get("Content-Length")).toBe(String(full.body.length));
  });

  it("If-None-Match with the kept ETag answers 304 without a body; another tag gets the page", async () => {
    const full = await get("/contact");
    const etag = full.headers.get("ETag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const notModified = await get("/contact", { "If-None-Match": etag });
    expect(notModified.status).toBe(304);
    expect(notModified.body.length).toBe(0);
    expect(notModified.headers.get("ETag")).toBe(etag);
    expect((await get("/contact", { "If-None-Match": `W/${etag}` })).status).toBe(304);
    expect((await get("/contact", { "If-None-Match": '"something-else"' })).status).toBe(200);
  });

  it("the kept gzip and brotli forms are the same document", async () => {
    const identity = await get("/contact");
    // Compressed once, off the request's path: until then the compression middleware streams
    // its own (chunked); the kept form goes out whole, with its length.
    const br = await waitFor(
      () => get("/contact", { "Accept-Encoding": "gzip, br" }),
      (r) => r.headers.has("Content-Length"),
    );
    expect(br.headers.get("Content-Encoding")).toBe("br");
    expect(zlib.brotliDecompressSync(br.body).equals(identity.body)).toBe(true);
    const gz = await get("/contact", { "Accept-Encoding": "gzip" });
    expect(gz.headers.get("Content-Encoding")).toBe("gzip");
    expect(zlib.gunzipSync(gz.body).equals(identity.body)).toBe(true);
    expect(Number(br.headers.get("Content-Length"))).toBe(br.body.length);
  });
});

describe("public JSON is kept the same way", () => {
  it("keeps the call's own ETag and Cache-Control, and answers 304", async () => {
    const first = await get("/api/categories/main");
    await writeOnAnotherInstance(`UPDATE "Category" SET "name" = 'Cardiology Behind The Back' WHERE "id" = $1::uuid`, catalogue.cardiology.id);
    try {
      const second = await get("/api/categories/main");
      expect(text(second)).toBe(text(first));
      expect(second.headers.get("ETag")).toBe(first.headers.get("ETag"));
      expect(second.headers.get("Cache-Control")).toBe(first.headers.get("Cache-Control"));
      expect((await get("/api/categories/main", { "If-None-Match": first.headers.get("ETag")! })).status).toBe(304);
    } finally {
      await prisma.category.update({ where: { id: catalogue.cardiology.id }, data: { name: "Cardiology" } });
    }
  });
});

describe("a kept animation page still counts its views", () => {
  it("each anonymous view of the kept page adds one", async () => {
    const views = async () => (await prisma.animation.findUniqueOrThrow({ where: { id: catalogue.rhinoplasty.id } })).views;
    // Views counted by earlier cases are written first: only this case's are counted below.
    await flushViewCounts();
    const before = await views();
    for (let i = 0; i < 3; i++) expect((await get("/animations/rhinoplasty")).status).toBe(200);
    // A HEAD is not a view.
    await get("/animations/rhinoplasty", {}, "HEAD");
    expect(await waitFor(views, (n) => n === before + 3)).toBe(before + 3);
  });
});
