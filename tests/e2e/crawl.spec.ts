import { expect, test } from "@playwright/test";

// The crawl files as the production server sends them: robots.txt, the sitemap, the web
// manifest and the icons it names, which are static files of public/ (the integration tests
// cannot GET those: their app serves no client files).

test("robots.txt and the sitemap index answer, the one naming the other", async ({ request, baseURL }) => {
  const robots = await request.get("/robots.txt");
  expect(robots.status()).toBe(200);
  expect(robots.headers()["content-type"]).toMatch(/^text\/plain/);
  expect(await robots.text()).toContain(`Sitemap: ${new URL("/sitemap.xml", baseURL).href}`);
  const index = await request.get("/sitemap.xml");
  expect(index.status()).toBe(200);
  expect(index.headers()["content-type"]).toMatch(/^application\/xml/);
  const files = [...(await index.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replace(/&amp;/g, "&"));
  expect(files).toContain(new URL("/sitemap-animations.xml?page=1", baseURL).href);
  for (const file of files) expect((await request.get(file)).status(), file).toBe(200);
});

test("the head links the manifest and the theme colour; every icon, and the touch icon Safari asks for at the root, answers as a PNG", async ({
  page,
  request,
}) => {
  await page.goto("/");
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute("href", "/manifest.webmanifest");
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute("content", /^#[0-9a-f]{6}$/);
  const manifest = await request.get("/manifest.webmanifest");
  expect(manifest.status()).toBe(200);
  const { icons } = (await manifest.json()) as { icons: Array<{ src: string }> };
  for (const src of [...icons.map((icon) => icon.src), "/apple-touch-icon.png"]) {
    const icon = await request.get(src);
    expect(icon.status(), src).toBe(200);
    expect(icon.headers()["content-type"], src).toBe("image/png");
  }
});
