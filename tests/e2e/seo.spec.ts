import { expect, type Page, test } from "@playwright/test";

// What Lighthouse's SEO audit checks, on the public pages of the seeded site, with and without
// JavaScript (both projects run it): the page answers 200, has a document title and a meta
// description, one valid canonical URL, no robots rule that blocks indexing (search results
// excepted: "noindex, follow"), crawlable links, image alternatives and no hreflang (the site
// has one language, so none may be present). Slugs come from the app's own API.

type Listed = { data?: Array<{ slug: string }> } | Array<{ slug: string }>;

async function firstSlug(page: Page, path: string) {
  const res = await page.request.get(path);
  expect(res.ok(), path).toBe(true);
  const body = (await res.json()) as Listed & Record<string, unknown>;
  const list = (Array.isArray(body) ? body : (body.data ?? body.animations ?? body.doctors ?? body.categories)) as Array<{ slug: string }>;
  expect(list.length, path).toBeGreaterThan(0);
  return list[0]!.slug;
}

async function auditHead(page: Page, path: string, robots: "index" | "noindex, follow" | "noindex" = "index") {
  // The head and the links are there once the document is parsed; "load" also waits for the video.
  const response = await page.goto(path, { waitUntil: "domcontentloaded" });
  expect(response?.status(), path).toBe(200);
  expect(response?.headers()["x-robots-tag"] ?? "", path).not.toContain("noindex");

  expect((await page.title()).trim(), path).not.toBe("");
  const description = page.locator('head meta[name="description"]');
  await expect(description, path).toHaveCount(1);
  expect(((await description.getAttribute("content")) ?? "").trim(), path).not.toBe("");

  const canonical = page.locator('head link[rel="canonical"]');
  await expect(canonical, path).toHaveCount(1);
  const href = new URL((await canonical.getAttribute("href"))!);
  expect(href.origin, path).toBe(new URL(page.url()).origin);
  expect(href.search, path).toBe("");

  const robotsContent = await page.locator('head meta[name="robots"]').evaluateAll((els) => els.map((el) => el.getAttribute("content")));
  expect(robotsContent, path).toEqual(robots === "index" ? [] : [robots]);

  const anchors = await page.locator("a").evaluateAll((els) => els.map((el) => el.getAttribute("href")));
  for (const anchor of anchors) {
    expect(anchor, `${path}: every link has an address a crawler can follow`).toBeTruthy();
    expect(anchor!.trim().toLowerCase().startsWith("javascript:"), `${path}: ${anchor}`).toBe(false);
  }
  const imagesWithoutAlt = await page.locator("img:not([alt])").evaluateAll((els) => els.map((el) => el.getAttribute("src")));
  expect(imagesWithoutAlt, path).toEqual([]);
  await expect(page.locator("link[hreflang]"), path).toHaveCount(0);
}

test.describe("what Lighthouse's SEO audit checks", () => {
  test("the home page and search", async ({ page }) => {
    await auditHead(page, "/");
    await auditHead(page, "/search");
    await auditHead(page, "/search?q=face", "noindex, follow");
  });

  test("an animation, its canonical without the query", async ({ page }) => {
    const animation = await firstSlug(page, "/api/animations?limit=1");
    await auditHead(page, `/animations/${animation}?utm_source=test`);
    expect(await page.locator('head link[rel="canonical"]').getAttribute("href")).toMatch(new RegExp(`/animations/${animation}$`));
  });

  test("a doctor and a category", async ({ page }) => {
    await auditHead(page, `/doctors/${await firstSlug(page, "/api/doctors")}`);
    await auditHead(page, `/category/${await firstSlug(page, "/api/categories/main")}`);
  });

  test("the offers, help, contact and sign-in pages", async ({ page }) => {
    for (const path of ["/premium", "/individual-license", "/category-license", "/global-license", "/help", "/contact"]) await auditHead(page, path);
    await auditHead(page, "/auth");
  });

  test("an animation's social preview and structured data", async ({ page }) => {
    const animation = await firstSlug(page, "/api/animations?limit=1");
    await page.goto(`/animations/${animation}`, { waitUntil: "domcontentloaded" });
    for (const property of ["og:title", "og:description", "og:url", "og:type", "og:site_name", "og:locale"]) {
      await expect(page.locator(`head meta[property="${property}"]`), property).toHaveCount(1);
    }
    await expect(page.locator('head meta[name="twitter:card"]')).toHaveCount(1);
    const blocks = await page
      .locator('script[type="application/ld+json"]')
      .evaluateAll((els) => els.map((el) => JSON.parse(el.textContent ?? "") as { "@type": string }));
    expect(blocks.map((block) => block["@type"]).sort()).toEqual(["BreadcrumbList", "MedicalWebPage"]);
    await expect(page.locator('head link[rel="alternate"][type="application/json+oembed"]')).toHaveCount(1);
  });
});
