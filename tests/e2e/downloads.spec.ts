import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { signUp } from "./helpers.ts";
import { type StreamingAnimation, streamingAnimation, TRANSCODE_WAIT_MS } from "./streaming-source.ts";

// The Downloads library (/my-animations), in both projects, as a buyer meets it: a category
// licence for the category of the animation this run transcodes (streaming-source.ts: the demo
// masters are not transcoded in e2e, so only it has pipeline files, a WebM among them) and an
// individual licence elsewhere; the GET filters; the package's ZIP holding what its README
// lists, with those checksums; one single WebM file; the download count; and the animation
// page's licence card linking the package.

// A category licence's library, two checkouts, two downloads and a checksum of each file.
const FLOW_TEST_MS = 120_000;

let animation: StreamingAnimation & { categoryId: string; categorySlug: string; categoryName: string };

test.beforeAll(async ({ browser }) => {
  test.setTimeout(TRANSCODE_WAIT_MS + 90_000);
  const made = await streamingAnimation(browser);
  const context = await browser.newContext();
  try {
    const res = await context.request.get(`/api/animations/${made.slug}`);
    expect(res.ok()).toBe(true);
    const { category } = (await res.json()) as { category: { id: string; slug: string; name: string } };
    animation = { ...made, categoryId: category.id, categorySlug: category.slug, categoryName: category.name };
  } finally {
    await context.close();
  }
});

/** Pays on the test-mode checkout (embedded with JavaScript, the hosted test page without) and waits for the confirmation. */
async function buy(page: Page, checkoutPath: string) {
  await page.goto(checkoutPath);
  await page.getByRole("button", { name: "Continue to Payment" }).click();
  await expect(page.getByText("Test mode — no real payments")).toBeVisible();
  await page.getByRole("button", { name: /^Pay \$\d+/ }).click();
  await expect(page.getByRole("main").getByRole("heading", { level: 1, name: "Your license is active" })).toBeVisible();
}

/** Submits the library's search form (a GET form: the same request with or without JavaScript). */
async function filterLibrary(page: Page, filters: { q?: string; licence?: string; category?: string }) {
  const form = page.getByRole("search");
  if (filters.q !== undefined) await form.getByRole("searchbox", { name: "Search your animations" }).fill(filters.q);
  if (filters.licence !== undefined) await form.getByRole("combobox", { name: "License", exact: true }).selectOption({ label: filters.licence });
  if (filters.category !== undefined) await form.getByRole("combobox", { name: "Category", exact: true }).selectOption({ label: filters.category });
  await form.getByRole("button", { name: "Search" }).click();
}

/** A library card: the list item whose heading is the animation's title. */
const cardOf = (page: Page, title: string) =>
  page
    .getByRole("main")
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { level: 3, name: title, exact: true }) });

/** Clicks a download link and keeps the file: its suggested name and its bytes on disk. */
async function download(page: Page, link: Locator, saveAs: string) {
  const started = page.waitForEvent("download");
  await link.click();
  const file = await started;
  await file.saveAs(saveAs);
  return file.suggestedFilename();
}

/** The files a package's README lists (table and checksum lines), relative to the package folder. */
function readmeListing(readme: string) {
  const count = Number(/^Files \((\d+), besides this README\.txt\):$/m.exec(readme)?.[1]);
  const checksums = new Map([...readme.matchAll(/^([0-9a-f]{64}) {2}(\S+)$/gm)].map((m) => [m[2]!, m[1]!]));
  return { count, checksums };
}

test("a buyer's Downloads library: filters without JavaScript, the package's ZIP holds what its README lists, a single WebM file", async ({ page }) => {
  test.setTimeout(FLOW_TEST_MS);
  const { slug, title } = animation;
  await signUp(page);
  // The category licence covers the transcoded animation; an individual licence, in another category, is there to be filtered out.
  const { animations } = (await (await page.request.get("/api/animations?limit=100")).json()) as {
    animations: { slug: string; title: string; categoryId: string | null }[];
  };
  const elsewhere = animations.find((a) => a.categoryId && a.categoryId !== animation.categoryId)!;
  expect(elsewhere, "an animation outside the licensed category").toBeDefined();
  await buy(page, `/purchase/category/${animation.categorySlug}`);
  await buy(page, `/purchase/individual/${elsewhere.slug}`);

  await test.step("the filters are a GET form: search, licence and category are in the URL and narrow the list", async () => {
    await page.goto("/my-animations");
    await expect(page.getByRole("heading", { level: 1, name: "My Animations" })).toBeVisible();
    const form = page.getByRole("search");
    await expect(form).toHaveAttribute("method", "get");
    await expect(cardOf(page, elsewhere.title)).toHaveCount(1);

    await filterLibrary(page, { q: title });
    await expect(page).toHaveURL((url) => url.pathname === "/my-animations" && url.searchParams.get("q") === title);
    await expect(page.getByRole("heading", { level: 2, name: `1 animation matching "${title}"` })).toBeVisible();
    await expect(cardOf(page, title)).toHaveCount(1);
    await expect(cardOf(page, elsewhere.title)).toHaveCount(0);

    // Its only licence is a category licence: the individual ones hold nothing of that name.
    await filterLibrary(page, { licence: "Individual licenses" });
    await expect(page).toHaveURL((url) => url.searchParams.get("licence") === "individual" && url.searchParams.get("q") === title);
    await expect(page.getByText(`No animations match "${title}"`, { exact: true })).toBeVisible();
    await expect(cardOf(page, title)).toHaveCount(0);

    await filterLibrary(page, { q: "", licence: "Individual licenses" });
    await expect(page.getByRole("heading", { level: 2, name: "1 animation matching the filters" })).toBeVisible();
    await expect(cardOf(page, elsewhere.title)).toHaveCount(1);

    // The category select lists the categories the licences cover; one shows that category's animations only.
    await filterLibrary(page, { licence: "All licenses", category: animation.categoryName });
    await expect(page).toHaveURL((url) => url.searchParams.get("category") === animation.categoryId);
    await expect(cardOf(page, title)).toHaveCount(1);
    await expect(cardOf(page, elsewhere.title)).toHaveCount(0);
  });

  await page.goto(`/my-animations?q=${encodeURIComponent(title)}`);
  const card = cardOf(page, title);
  await expect(card.getByText("Category license", { exact: true })).toBeVisible();
  const packageLink = card.getByRole("link", { name: `Download package (ZIP) of ${title}` });
  await expect(packageLink).toHaveAttribute("href", `/packages/${slug}.zip`);
  // Nothing taken yet.
  await expect(card.getByText(/^Downloaded /)).toHaveCount(0);

  const singleFiles = card.locator("details");
  const summary = singleFiles.locator("summary");
  await expect(summary).toHaveText(new RegExp(`^Single files \\((\\d+)\\) of ${title}$`));
  const singleCount = Number(/\((\d+)\)/.exec((await summary.textContent())!)![1]);
  // Read while the disclosure is closed (its links are in the page, only hidden).
  const singleNames = (await singleFiles.locator("a[href]").evaluateAll((links) => links.map((a) => a.getAttribute("href")!))).map((href) => {
    expect(href.startsWith(`/packages/${slug}/`), href).toBe(true);
    return href.slice(`/packages/${slug}/`.length);
  });
  expect(singleNames).toHaveLength(singleCount);

  await test.step("the package: a ZIP whose entries are its README and exactly the files the README lists, with their checksums", async () => {
    const zipPath = test.info().outputPath(`${slug}.zip`);
    expect(await download(page, packageLink, zipPath)).toBe(`${slug}.zip`);
    expect(fs.readFileSync(zipPath).subarray(0, 4).toString("hex")).toBe("504b0304");
    const entries = execFileSync("unzip", ["-Z1", zipPath], { encoding: "utf8" }).trim().split("\n");
    const readme = execFileSync("unzip", ["-p", zipPath, `${slug}/README.txt`], { encoding: "utf8" });
    expect(readme).toContain(`The animation "${title}" from Medanim`);
    const { count, checksums } = readmeListing(readme);
    expect(checksums.size).toBe(count);
    expect([...entries].sort()).toEqual([`${slug}/README.txt`, ...[...checksums.keys()].map((file) => `${slug}/${file}`)].sort());
    // What the pipeline made from the 720p master, the captions in two formats and the licence terms.
    for (const file of [`${slug}-720p.mp4`, `${slug}-720p.webm`, `captions/${slug}.en.vtt`, `captions/${slug}.en.srt`, "LICENSE.txt"]) {
      expect(checksums.has(file), `${file} in the README`).toBe(true);
    }
    for (const [file, sha256] of checksums) {
      const bytes = execFileSync("unzip", ["-p", zipPath, `${slug}/${file}`], { maxBuffer: 512 * 1024 * 1024 });
      expect(crypto.createHash("sha256").update(bytes).digest("hex"), `${file}'s SHA-256`).toBe(sha256);
    }
    // The library's single files are the package's, by the same names (the README and licence terms are written into the ZIP).
    expect([...singleNames].sort()).toEqual(
      [...checksums.keys()]
        .map((file) => file.split("/").at(-1)!)
        .filter((name) => name !== "LICENSE.txt")
        .sort(),
    );
  });

  await test.step("a single file from the disclosure: the WebM, whose bytes start with EBML's magic", async () => {
    await summary.click();
    const webm = singleFiles.getByRole("link", { name: "WebM (VP9, Opus), 720p", exact: true });
    await expect(webm).toBeVisible();
    await expect(webm).toHaveAttribute("href", `/packages/${slug}/${slug}-720p.webm`);
    const webmPath = test.info().outputPath(`${slug}-720p.webm`);
    expect(await download(page, webm, webmPath)).toBe(`${slug}-720p.webm`);
    const bytes = fs.readFileSync(webmPath);
    expect(bytes.subarray(0, 4).toString("hex")).toBe("1a45dfa3");
    expect(bytes.length).toBeGreaterThan(1000);
  });

  await test.step("the library counts both downloads (recorded once each file is sent)", async () => {
    await expect(async () => {
      await page.reload();
      await expect(cardOf(page, title).getByText(/^Downloaded 2 times, last on /)).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
  });

  await test.step("the animation page's licence card links the package and its single files", async () => {
    await page.goto(`/animations/${slug}`);
    const licenceCard = page.locator("section").filter({ has: page.getByRole("heading", { level: 2, name: "Your License" }) });
    await expect(licenceCard.getByRole("link", { name: "Download package (ZIP)", exact: true })).toHaveAttribute("href", `/packages/${slug}.zip`);
    await expect(licenceCard.locator("summary")).toHaveText(`Single files (${singleCount})`);
    await licenceCard.locator("summary").click();
    await expect(licenceCard.getByRole("link", { name: "WebM (VP9, Opus), 720p", exact: true })).toHaveAttribute("href", `/packages/${slug}/${slug}-720p.webm`);
    await expect(licenceCard.getByRole("link", { name: "All your downloads" })).toHaveAttribute("href", "/my-animations");
  });
});

test("/downloads is the same library", async ({ page }) => {
  await signUp(page);
  await page.goto("/downloads");
  await expect(page.getByRole("heading", { level: 1, name: "My Animations" })).toBeVisible();
  await expect(page.getByText("No licensed animations yet", { exact: true })).toBeVisible();
  await expect(page.getByRole("search")).toHaveAttribute("method", "get");
});
