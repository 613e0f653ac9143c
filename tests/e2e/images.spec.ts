import { expect, test, type Page } from "@playwright/test";

// Responsive images on the catalogue pages: every <img> names its renditions in
// srcset and sizes, reserves its box with width and height, arrives as AVIF or WebP, and is not
// more than twice as wide in pixels as it is shown: Lighthouse's "properly size images" check.

const ANIMATION = "/animations/open_rhinoplasty_reshaping_the_nasal_framework";

type Shown = { src: string; srcset: string | null; sizes: string | null; width: string | null; height: string | null; natural: number; shown: number };

/**
 * Every image shown on the page, once loaded: lazy ones come in as they are scrolled to. On the
 * home page with JavaScript, scrolling to the last card loads more cards: until a round appends
 * none, their images are scrolled to and waited for too.
 */
async function images(page: Page): Promise<Shown[]> {
  for (;;) {
    const before = await page.locator("img").count();
    const shown = await loadedImages(page);
    if ((await page.locator("img").count()) === before) return shown;
  }
}

async function loadedImages(page: Page): Promise<Shown[]> {
  for (const img of await page.locator("img").all()) if (await img.isVisible()) await img.scrollIntoViewIfNeeded();
  // A first visit makes each image's renditions, one encode at a time.
  await expect
    .poll(
      () =>
        page
          .locator("img")
          .evaluateAll((all) => (all as HTMLImageElement[]).filter((img) => img.checkVisibility() && !img.complete).map((img) => img.currentSrc || img.src)),
      { timeout: 20_000 },
    )
    .toEqual([]);
  return page.locator("img").evaluateAll((all) =>
    (all as HTMLImageElement[])
      .filter((img) => img.checkVisibility())
      .map((img) => ({
        src: img.currentSrc,
        srcset: img.getAttribute("srcset"),
        sizes: img.getAttribute("sizes"),
        width: img.getAttribute("width"),
        height: img.getAttribute("height"),
        natural: img.naturalWidth,
        shown: img.getBoundingClientRect().width,
      })),
  );
}

async function cataloguePages(page: Page) {
  await page.goto(ANIMATION);
  const doctor = await page.locator('main a[href^="/doctors/"]').first().getAttribute("href");
  // A subcategory's listing (its thumbnail over the cards) and its specialty page's cards.
  return ["/", ANIMATION, "/category/rhinoplasty", "/category/plastic-surgery/rhinoplasty", doctor!];
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`catalogue images are sized for a ${viewport.width} px screen and sent as AVIF or WebP`, async ({ page }) => {
    // Five pages, and the first visit to each image makes its renditions.
    test.setTimeout(90_000);
    await page.setViewportSize(viewport);
    for (const url of await cataloguePages(page)) {
      await page.goto(url);
      const shown = await images(page);
      expect(shown.length, url).toBeGreaterThan(0);
      for (const image of shown) {
        const name = `${url}: ${image.src}`;
        expect(image.srcset, name).toMatch(/ \d+w$/);
        expect(image.sizes, name).toBeTruthy();
        expect(Number(image.width), name).toBeGreaterThan(0);
        expect(Number(image.height), name).toBeGreaterThan(0);
        expect(image.src, name).toMatch(/\.(avif|webp)$/);
        expect(image.natural, name).toBeGreaterThan(0);
        expect(image.natural, name).toBeLessThanOrEqual(2 * image.shown);
      }
    }
  });
}

test("an animation page offers a 1200×630 social preview of its cover", async ({ page, request }) => {
  await page.goto(ANIMATION);
  const og = await page.locator('meta[property="og:image"]').getAttribute("content");
  expect(og).toMatch(/\/objects\/uploads\/[0-9a-f-]{36}\/og\.jpg$/);
  const response = await request.get(new URL(og!).pathname);
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toBe("image/jpeg");
  expect(response.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
});

// Lighthouse's phone (412 × 823 CSS px). A lazy picture waits for layout and then queues at low
// priority behind the scripts: on the home page that made the first cover, the page's Largest
// Contentful Paint, arrive at 2.2 s of Lighthouse's simulated 4G ("LCP image was lazily loaded").
// The largest picture is found by its box: the browser's LCP entries need the page's own event
// loop, which the no-js project does not run.
test("the largest picture of a phone's first screen is fetched at once, at high priority", async ({ page }) => {
  const viewport = { width: 412, height: 823 };
  await page.setViewportSize(viewport);
  // A category filter hides the "New" shelf: the list leads the page.
  for (const url of ["/", "/?category=plastic-surgery", "/search?q=rhinoplasty", "/category/rhinoplasty"]) {
    await page.goto(url);
    const pictures = await page.locator("img").evaluateAll(
      (all, { width, height }) =>
        (all as HTMLImageElement[]).map((img) => {
          const box = img.getBoundingClientRect();
          const shown = img.checkVisibility()
            ? Math.max(0, Math.min(box.right, width) - Math.max(box.left, 0)) * Math.max(0, Math.min(box.bottom, height) - Math.max(box.top, 0))
            : 0;
          return { shown, loading: img.getAttribute("loading"), priority: img.getAttribute("fetchpriority") };
        }),
      viewport,
    );
    const largest = pictures.reduce((a, b) => (b.shown > a.shown ? b : a));
    expect(largest.shown, url).toBeGreaterThan(0);
    expect({ loading: largest.loading, priority: largest.priority }, url).toEqual({ loading: "eager", priority: "high" });
    // One picture at high priority: two would share the bandwidth the first one needs.
    expect(
      pictures.filter((p) => p.priority === "high"),
      url,
    ).toHaveLength(1);
  }
});

// The poster is the animation page's largest picture: a rendition, not the uploaded original.
test("the player's poster is the cover's WebP rendition", async ({ page, request }) => {
  await page.goto(ANIMATION);
  const poster = await page.getByTestId("animation-video").getAttribute("poster");
  expect(poster).toMatch(/^\/objects\/uploads\/[0-9a-f-]{36}\/16x9-1280\.webp$/);
  const response = await request.get(poster!);
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toBe("image/webp");
});
