import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { resetEnv } from "~/lib/env.server.ts";
import { dropAllCaches } from "~/lib/cache-registry.server.ts";
import routeConfig from "~/routes.ts";
import { MAX_ENTRY_BYTES, SITEMAP_NS, VIDEO_NS } from "~/services/seo/sitemap-xml.ts";
import { STATIC_PUBLIC_PATHS } from "~/services/seo/sitemap.server.ts";
import { sendToApp, type WireResponse } from "../helpers/app.ts";
import { createAnimation, createCatalogue } from "../helpers/catalogue.ts";
import { accessTokenFor, createUser } from "../helpers/factories.ts";
import { writeOnAnotherInstance } from "../helpers/another-instance.ts";
import { makeReady } from "../helpers/publishing.ts";

// The crawl files (robots.txt, the sitemap index and its files, the web manifest) through the
// app's front door, compared with the database: exactly what a visitor can open is listed.

const ORIGIN = new URL(process.env.APP_URL ?? "http://localhost:3000").origin;

type Node = { name: string; attrs: Record<string, string>; children: Node[]; text: string };

const ENTITY = /&(amp|lt|gt|quot|apos);/g;
const DECODED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/**
 * A strict reader for the XML these files may contain (a declaration, elements, attributes,
 * text, the five entities): throws on anything not well-formed, so a stray `&` or an unclosed
 * element fails the test.
 */
function parseXml(xml: string): Node {
  const declaration = /^<\?xml version="1\.0" encoding="UTF-8"\?>\n/;
  if (!declaration.test(xml)) throw new Error("no XML declaration");
  const body = xml.replace(declaration, "");
  const root: Node = { name: "#document", attrs: {}, children: [], text: "" };
  const stack = [root];
  const token = /<(\/?)([A-Za-z][\w:.-]*)((?:\s+[\w:]+="[^"<&]*")*)\s*(\/?)>|([^<]+)/gy;
  let at = 0;
  for (let match = token.exec(body); match; match = token.exec(body)) {
    at = token.lastIndex;
    const [, closing, name, attrText, selfClosing, text] = match;
    const top = stack.at(-1)!;
    if (text !== undefined) {
      if (/[<>]/.test(text) || /&(?!(amp|lt|gt|quot|apos);)/.test(text)) throw new Error(`bad text: ${text.slice(0, 80)}`);
      if (top === root && text.trim()) throw new Error("text outside the root element");
      top.text += text.replace(ENTITY, (_, e: string) => DECODED[e]!);
      continue;
    }
    if (closing) {
      if (top.name !== name) throw new Error(`</${name}> closes <${top.name}>`);
      stack.pop();
      continue;
    }
    const attrs = Object.fromEntries([...attrText!.matchAll(/([\w:]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    const node: Node = { name: name!, attrs, children: [], text: "" };
    if (top === root && root.children.length) throw new Error("a second root element");
    top.children.push(node);
    if (!selfClosing) stack.push(node);
  }
  if (at !== body.length) throw new Error(`unreadable XML at ${at}: ${body.slice(at, at + 80)}`);
  if (stack.length !== 1) throw new Error(`<${stack.at(-1)!.name}> is never closed`);
  return root.children[0]!;
}

const child = (node: Node, name: string) => node.children.find((c) => c.name === name);
const textOf = (node: Node, name: string) => child(node, name)?.text;

async function get(target: string, headers: Record<string, string> = {}) {
  return sendToApp(target, { headers: new Headers(headers) });
}

async function xmlAt(target: string) {
  const response = await get(target);
  expect(response.status, target).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^application\/xml/);
  return { response, root: parseXml(response.body.toString("utf8")) };
}

/** Every file the index lists, read: the locs of each and their <url> nodes. */
async function readSitemap() {
  const { root: index } = await xmlAt("/sitemap.xml");
  expect(index.name).toBe("sitemapindex");
  expect(index.attrs.xmlns).toBe(SITEMAP_NS);
  const files = index.children.map((s) => textOf(s, "loc")!);
  const urls: Node[] = [];
  const perFile: Array<{ file: string; urls: number; bytes: number }> = [];
  for (const file of files) {
    expect(file.startsWith(`${ORIGIN}/`), file).toBe(true);
    const { response, root } = await xmlAt(file.slice(ORIGIN.length));
    expect(root.name).toBe("urlset");
    expect(root.attrs.xmlns).toBe(SITEMAP_NS);
    urls.push(...root.children);
    perFile.push({ file, urls: root.children.length, bytes: response.body.length });
  }
  return { files, urls, perFile, locs: urls.map((u) => textOf(u, "loc")!) };
}

let catalogue: Awaited<ReturnType<typeof createCatalogue>>;

beforeAll(async () => {
  catalogue = await createCatalogue();
  await prisma.page.createMany({
    data: [
      { title: "About Us", slug: "about", content: "<p>Who we are.</p>", type: "company" },
      { title: "Privacy Policy", slug: "privacy-policy", content: "<p>Privacy.</p>", type: "legal" },
      { title: "Refund Policy", slug: "refund-policy", content: "<p>Refunds.</p>", type: "legal" },
      { title: "Draft Terms", slug: "draft-terms", content: "<p>Soon.</p>", type: "legal", isPublished: false },
    ],
  });
  // One animation whose text needs escaping, with a pipeline set that has a public preview.
  const escaped = await createAnimation({
    title: `Knee "ACL" repair & rehab <part 1>`,
    slug: "knee_acl_repair",
    categoryId: catalogue.body.id,
    description: `Tendon & ligament <b>graft</b> — it's "step by step".\u0007`,
    previewVideo: null,
  });
  const setId = crypto.randomUUID();
  await prisma.mediaSet.create({
    data: {
      id: setId,
      animationId: escaped.id,
      sourcePath: escaped.fullVideo!,
      sourceWidth: 1280,
      sourceHeight: 720,
      duration: 95,
      frameRate: 25,
      hasAudio: true,
    },
  });
  await prisma.mediaRendition.create({ data: { setId, kind: "preview", file: "preview.mp4", width: 1280, height: 720, codec: "avc1", bytes: 1000n } });
  await prisma.animation.update({ where: { id: escaped.id }, data: { mediaSetId: setId } });
  // No public preview at all: listed, without a video entry.
  await createAnimation({ title: "Shoulder Arthroscopy", categoryId: catalogue.body.id, previewVideo: null });
});

describe("the sitemap lists exactly what is public", () => {
  it("every active animation, visible category, active doctor and published page; nothing else", async () => {
    const { locs, files } = await readSitemap();
    const animations = await prisma.animation.findMany({ where: { isActive: true }, select: { slug: true } });
    const doctors = await prisma.doctor.findMany({ where: { isActive: true }, select: { slug: true } });
    const pages = await prisma.page.findMany({ where: { isPublished: true }, select: { slug: true } });
    const expected = [
      ...STATIC_PUBLIC_PATHS,
      ...pages.map((p) => `/${p.slug}`),
      `/category/${catalogue.plastic.slug}`,
      `/category/${catalogue.plastic.slug}/${catalogue.facial.slug}`,
      `/category/${catalogue.plastic.slug}/${catalogue.body.slug}`,
      `/category/${catalogue.cardiology.slug}`,
      ...doctors.map((d) => `/doctors/${d.slug}`),
      ...animations.map((a) => `/animations/${a.slug}`),
    ].map((p) => new URL(p, ORIGIN).href);
    expect([...locs].sort()).toEqual([...expected].sort());
    expect(new Set(locs).size).toBe(locs.length);
    // The absent, named: an inactive animation, an inactive category, an unpublished page.
    expect(locs).not.toContain(`${ORIGIN}/animations/${catalogue.retired.slug}`);
    expect(locs.some((l) => l.includes(catalogue.hidden.slug))).toBe(false);
    expect(locs).not.toContain(`${ORIGIN}/draft-terms`);
    expect(files).toEqual([
      `${ORIGIN}/sitemap-pages.xml`,
      `${ORIGIN}/sitemap-categories.xml`,
      `${ORIGIN}/sitemap-doctors.xml`,
      `${ORIGIN}/sitemap-animations.xml?page=1`,
    ]);
  });

  it("every listed URL answers 200 and does not ask to stay out of the index", async () => {
    const { locs } = await readSitemap();
    for (const loc of locs) {
      const page = await get(new URL(loc).pathname);
      expect(page.status, loc).toBe(200);
      // A sitemap that lists a noindex page sends crawlers contradictory signals.
      expect(page.body.toString(), loc).not.toMatch(/<meta[^>]+name="robots"[^>]+noindex/);
    }
  });

  it("lastmod comes from the rows: an animation's updatedAt, a page's, a category's", async () => {
    const { urls } = await readSitemap();
    const lastmodOf = (path: string) =>
      textOf(
        urls.find((u) => textOf(u, "loc") === `${ORIGIN}${path}`)!,
        "lastmod",
      );
    const rhino = await prisma.animation.findUniqueOrThrow({ where: { id: catalogue.rhinoplasty.id } });
    expect(lastmodOf(`/animations/${rhino.slug}`)).toBe(rhino.updatedAt.toISOString());
    const page = await prisma.page.findUniqueOrThrow({ where: { slug: "privacy-policy" } });
    expect(lastmodOf("/privacy-policy")).toBe(page.updatedAt.toISOString());
    const plastic = await prisma.category.findUniqueOrThrow({ where: { id: catalogue.plastic.id } });
    expect(lastmodOf("/category/plastic-surgery")).toBe(plastic.updatedAt.toISOString());
    // A static page has no row: no date is claimed for it.
    expect(lastmodOf("/premium")).toBeUndefined();
  });

  it("animations carry a video entry with the public preview, escaped; none without a preview", async () => {
    const { response, root } = await xmlAt("/sitemap-animations.xml?page=1");
    expect(root.attrs["xmlns:video"]).toBe(VIDEO_NS);
    const entry = (slug: string) => root.children.find((u) => textOf(u, "loc") === `${ORIGIN}/animations/${slug}`)!;

    const knee = await prisma.animation.findUniqueOrThrow({ where: { slug: "knee_acl_repair" } });
    const video = child(entry(knee.slug), "video:video")!;
    expect(textOf(video, "video:title")).toBe(knee.title);
    // The control character XML cannot hold is dropped; the rest is the description as stored.
    expect(textOf(video, "video:description")).toBe(knee.description.replace("\u0007", ""));
    expect(textOf(video, "video:content_loc")).toBe(`${ORIGIN}/media/${knee.mediaSetId}/public/preview.mp4`);
    expect(textOf(video, "video:thumbnail_loc")).toBe(`${ORIGIN}${knee.coverImage}/16x9-1280.jpg`);
    expect(textOf(video, "video:duration")).toBe(String(knee.duration));
    expect(response.body.toString()).toContain("Knee &quot;ACL&quot; repair &amp; rehab &lt;part 1&gt;");

    // The stored preview (before any pipeline set) is public as well.
    const rhino = child(entry(catalogue.rhinoplasty.slug), "video:video")!;
    expect(textOf(rhino, "video:content_loc")).toBe(`${ORIGIN}${catalogue.rhinoplasty.previewVideo}`);
    expect(child(entry("shoulder-arthroscopy"), "video:video")).toBeUndefined();
    // The full video and the download package are never named.
    const body = response.body.toString();
    for (const row of await prisma.animation.findMany({ select: { fullVideo: true, downloadFile: true } })) {
      expect(body).not.toContain(row.fullVideo!);
      expect(body).not.toContain(row.downloadFile!);
    }
  });

  it("an entry stays within its byte budget however long and awkward the description", async () => {
    const long = await createAnimation({ title: "Long Description", description: `&<>"' ü 🫀 `.repeat(3000) });
    const { root, response } = await xmlAt("/sitemap-animations.xml?page=1");
    const xml = response.body.toString();
    const start = xml.indexOf(`<url><loc>${ORIGIN}/animations/${long.slug}</loc>`);
    const entry = xml.slice(start, xml.indexOf("</url>", start) + "</url>\n".length);
    expect(Buffer.byteLength(entry)).toBeLessThanOrEqual(MAX_ENTRY_BYTES);
    const description = textOf(
      child(
        root.children.find((u) => textOf(u, "loc")!.endsWith(long.slug))!,
        "video:video",
      )!,
      "video:description",
    )!;
    expect(description.length).toBeGreaterThan(200);
    expect(long.description.startsWith(description)).toBe(true);
    await prisma.animation.delete({ where: { id: long.id } });
  });

  it("cache headers: public, an ETag, and 304 when it matches", async () => {
    for (const target of ["/sitemap.xml", "/sitemap-pages.xml", "/sitemap-animations.xml?page=1"]) {
      const first = await get(target);
      expect(first.headers.get("cache-control")).toBe("public, max-age=300");
      const etag = first.headers.get("etag")!;
      expect(etag).toBeTruthy();
      const again = await get(target, { "If-None-Match": etag });
      expect(again.status, target).toBe(304);
      expect(again.body.length).toBe(0);
    }
  });

  it("answers only GET and HEAD; unknown files are 404", async () => {
    const post = await sendToApp("/sitemap.xml", {
      method: "POST",
      headers: new Headers({ "Content-Type": "application/x-www-form-urlencoded" }),
      body: "a=1",
    });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    for (const target of ["/sitemap.xml", "/sitemap-animations.xml?page=1", "/robots.txt", "/manifest.webmanifest"]) {
      const head = await sendToApp(target, { method: "HEAD" });
      expect(head.status, target).toBe(200);
      expect(head.body.length, target).toBe(0);
    }
    for (const target of ["/sitemap-animations.xml", "/sitemap-animations.xml?page=0", "/sitemap-animations.xml?page=2", "/sitemap-animations.xml?page=x"]) {
      expect((await get(target)).status, target).toBe(404);
    }
  });
});

describe("a write shows on the next request, with the caches on", () => {
  let token: string;
  beforeAll(async () => {
    process.env.CATALOGUE_CACHE_MS = "60000";
    resetEnv();
    dropAllCaches();
    token = await accessTokenFor((await createUser({ role: "admin" })).id);
  });
  afterAll(() => {
    delete process.env.CATALOGUE_CACHE_MS;
    resetEnv();
    dropAllCaches();
  });

  const api = (target: string, method: string, json: unknown) =>
    sendToApp(target, { method, headers: new Headers({ "Content-Type": "application/json", Authorization: `Bearer ${token}` }), body: JSON.stringify(json) });

  it("the caches are on: a row written by another instance stays unseen", async () => {
    const before = (await readSitemap()).locs;
    await writeOnAnotherInstance(
      `INSERT INTO "Doctor" ("id", "name", "slug", "specialty", "isActive", "createdAt", "updatedAt") VALUES (gen_random_uuid(), 'Dr. Unseen', 'unseen', 'Radiologist', true, now(), now())`,
    );
    expect((await readSitemap()).locs).toEqual(before);
    await prisma.doctor.delete({ where: { slug: "unseen" } });
  });

  it("unpublishing an animation removes it; publishing it again brings it back", async () => {
    await readSitemap();
    const slug = catalogue.tummy.slug;
    expect((await api(`/api/admin/animations/${catalogue.tummy.id}/unpublish`, "POST", {})).status).toBe(200);
    expect((await readSitemap()).locs).not.toContain(`${ORIGIN}/animations/${slug}`);
    // Publishing needs a processed video and a current review (decision 032).
    await makeReady(catalogue.tummy.id, catalogue.smith.id);
    expect((await api(`/api/admin/animations/${catalogue.tummy.id}/publish`, "POST", {})).status).toBe(200);
    expect((await readSitemap()).locs).toContain(`${ORIGIN}/animations/${slug}`);
  });

  it("renaming a category's slug moves its URL", async () => {
    await readSitemap();
    const body = catalogue.body;
    const renamed = await api(`/api/categories/${body.id}`, "PUT", {
      name: body.name,
      slug: "body-shaping",
      parentId: catalogue.plastic.id,
      yearlyPrice: "199",
      sortOrder: 2,
      isActive: true,
    });
    expect(renamed.status).toBe(200);
    const { locs } = await readSitemap();
    expect(locs).toContain(`${ORIGIN}/category/plastic-surgery/body-shaping`);
    expect(locs).not.toContain(`${ORIGIN}/category/plastic-surgery/body-contouring`);
  });

  it("unpublishing a page removes it", async () => {
    await readSitemap();
    const page = await prisma.page.findUniqueOrThrow({ where: { slug: "refund-policy" } });
    const updated = await api(`/api/pages/${page.id}`, "PUT", {
      title: page.title,
      slug: page.slug,
      content: page.content,
      type: page.type,
      isPublished: false,
    });
    expect(updated.status).toBe(200);
    expect((await readSitemap()).locs).not.toContain(`${ORIGIN}/refund-policy`);
  });
});

describe("the animation files split at SITEMAP_URLS_PER_FILE", () => {
  beforeAll(() => {
    process.env.SITEMAP_URLS_PER_FILE = "2";
    resetEnv();
  });
  afterAll(() => {
    delete process.env.SITEMAP_URLS_PER_FILE;
    resetEnv();
  });

  it("every active animation once, in files of at most that many, each listed by the index", async () => {
    const { perFile, locs } = await readSitemap();
    const animationFiles = perFile.filter((f) => f.file.includes("sitemap-animations"));
    const active = await prisma.animation.count({ where: { isActive: true } });
    expect(animationFiles).toHaveLength(Math.ceil(active / 2));
    expect(animationFiles.map((f) => f.file)).toEqual(animationFiles.map((_, i) => `${ORIGIN}/sitemap-animations.xml?page=${i + 1}`));
    for (const file of animationFiles) expect(file.urls).toBeLessThanOrEqual(2);
    const animationLocs = locs.filter((l) => l.includes("/animations/"));
    expect(animationLocs).toHaveLength(active);
    expect(new Set(animationLocs).size).toBe(active);
  });
});

// ---- robots.txt ----

type Rule = { allow: boolean; pattern: string };

/** RFC 9309 matching as Google does it: the longest matching pattern wins, Allow on a tie. */
function allowed(rules: Rule[], target: string) {
  const matches = (pattern: string) => {
    const anchored = pattern.endsWith("$");
    const body = (anchored ? pattern.slice(0, -1) : pattern)
      .split("*")
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*");
    return new RegExp(`^${body}${anchored ? "$" : ""}`).test(target);
  };
  let best: Rule | null = null;
  for (const rule of rules) {
    if (!matches(rule.pattern)) continue;
    if (!best || rule.pattern.length > best.pattern.length || (rule.pattern.length === best.pattern.length && rule.allow)) best = rule;
  }
  return best?.allow ?? true;
}

type RouteEntry = { file: string; path?: string; children?: RouteEntry[] };
function leafRoutes(entries: RouteEntry[]): RouteEntry[] {
  return entries.flatMap((e) => (e.children ? leafRoutes(e.children) : [e]));
}

describe("robots.txt", () => {
  let rules: Rule[];
  let text: string;
  beforeAll(async () => {
    const response = await get("/robots.txt");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    text = response.body.toString();
    rules = [...text.matchAll(/^(Allow|Disallow): (\S+)$/gm)].map((m) => ({ allow: m[1] === "Allow", pattern: m[2]! }));
  });

  it("names the sitemap index by its absolute URL, under one User-agent group", () => {
    expect(text).toContain(`\nSitemap: ${ORIGIN}/sitemap.xml\n`);
    expect(text.match(/^User-agent:/gm)).toEqual(["User-agent:"]);
  });

  it("closes every admin, account, checkout and /api route of app/routes.ts (oEmbed aside)", () => {
    const closed = leafRoutes(routeConfig as RouteEntry[]).filter((r) => /^routes\/(admin|account|checkout)\//.test(r.file) || r.path?.startsWith("api/"));
    expect(closed.length).toBeGreaterThan(40);
    for (const route of closed) {
      const sample = `/${route.path!.replace(/:\w+\??/g, "x").replace(/\*$/, "x")}`;
      expect(allowed(rules, sample), sample).toBe(sample === "/api/oembed");
      expect(allowed(rules, `${sample}?a=1`), `${sample}?a=1`).toBe(sample === "/api/oembed");
    }
  });

  it("closes sign-in's variants, search results, the licensed player and members' media; opens the search and sign-in pages, public previews and images", () => {
    for (const path of [
      "/auth?redirectTo=/premium",
      "/auth?mode=signup",
      "/search?q=knee",
      "/embed/123",
      "/embed-media/x",
      "/media/set/u.1.2.3/hls/index.m3u8",
      "/reset-password?token=x",
    ]) {
      expect(allowed(rules, path), path).toBe(false);
    }
    // The two pages are indexable (their own head says so); only their query variants are closed.
    for (const path of [
      "/auth",
      "/search",
      "/media/set/public/preview.mp4",
      "/objects/uploads/x/16x9-1280.jpg",
      "/refund-policy",
      "/administration-guide",
      "/searching-tips",
    ]) {
      expect(allowed(rules, path), path).toBe(true);
    }
  });

  it("lets a crawler fetch every URL the sitemap lists, and each video's thumbnail and preview", async () => {
    const { locs, urls } = await readSitemap();
    for (const loc of locs) expect(allowed(rules, new URL(loc).pathname + new URL(loc).search), loc).toBe(true);
    const videoFiles = urls
      .flatMap((u) => u.children.filter((c) => c.name === "video:video"))
      .flatMap((v) => [textOf(v, "video:content_loc")!, textOf(v, "video:thumbnail_loc")!]);
    expect(videoFiles.length).toBeGreaterThan(0);
    for (const file of videoFiles) expect(allowed(rules, new URL(file).pathname), file).toBe(true);
  });
});

// ---- the web manifest ----

describe("the web manifest", () => {
  it("parses, is named by the platform_name setting, and its icons are PNGs of their stated size", async () => {
    await prisma.appSetting.upsert({
      where: { key: "platform_name" },
      create: { key: "platform_name", value: "Medanim Test" },
      update: { value: "Medanim Test" },
    });
    dropAllCaches();
    const response: WireResponse = await get("/manifest.webmanifest");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/manifest\+json/);
    const manifest = JSON.parse(response.body.toString()) as {
      name: string;
      short_name: string;
      start_url: string;
      display: string;
      theme_color: string;
      background_color: string;
      icons: Array<{ src: string; sizes: string; type: string; purpose: string }>;
    };
    expect(manifest).toMatchObject({ name: "Medanim Test", short_name: "Medanim Test", start_url: "/", display: "standalone" });
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/);
    expect(fs.readFileSync("app/app.css", "utf8")).toContain(`--color-brand-700: ${manifest.theme_color};`);
    expect(manifest.icons.map((i) => `${i.sizes} ${i.purpose}`).sort()).toEqual(["192x192 any", "512x512 any", "512x512 maskable"]);
    // Served from public/ by the production server (tests/e2e checks the GETs): the files and their sizes here.
    for (const icon of [...manifest.icons, { src: "/apple-touch-icon.png", sizes: "180x180", type: "image/png" }]) {
      const meta = await sharp(path.join("public", icon.src)).metadata();
      expect(`${meta.width}x${meta.height}`, icon.src).toBe(icon.sizes);
      expect(meta.format).toBe("png");
      expect(icon.type).toBe("image/png");
    }
  });
});
