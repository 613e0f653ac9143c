import { expect, type Locator, type Page, test } from "@playwright/test";
import { expectFieldError, expectToast, MEMBER, signIn } from "./helpers.ts";

// The public catalogue, with and without JavaScript (both projects run every test). Titles and
// slugs come from the seeded data through the app itself rather than being written here.

const isJs = () => test.info().project.name === "js";

type ApiAnimation = {
  id: string;
  slug: string;
  title: string;
  previewVideo: string | null;
  fullVideo: string | null;
  downloadFile: string | null;
  individualPrice: number;
  duration: number;
};

async function apiAnimation(page: Page, slug: string): Promise<ApiAnimation> {
  // page.request shares the browser context's cookies: the answer is shaped for this viewer.
  const res = await page.request.get(`/api/animations/${slug}`);
  expect(res.ok()).toBe(true);
  return res.json();
}

/** The home's list, without the "New" shelf above it. */
function listCards(page: Page) {
  return page.getByRole("region", { name: "Animations" }).getByTestId("animation-card");
}

async function firstCardSlug(page: Page) {
  const href = await page.getByTestId("animation-card").first().getByRole("link").first().getAttribute("href");
  return href!.split("/").pop()!;
}

test.describe("home", () => {
  test("shows the headline, premium call to action, the New shelf and a first page of cards", async ({ page }) => {
    await page.goto("/");
    // The demo has animations from the last 30 days (5, 9 and 21 days old), newest first (beside
    // the one the streaming specs upload during the run).
    await expect(
      page
        .getByTestId("new-shelf")
        .getByTestId("animation-card")
        .filter({ hasNotText: /Streaming Ladder/ }),
    ).toHaveCount(3);
    await expect(page.getByRole("heading", { level: 1, name: "The World's Most Advanced Doctor-Verified Medical Animations" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Get Premium Access" })).toHaveAttribute("href", "/premium");
    const cards = listCards(page);
    await expect(cards).toHaveCount(6);
    // The list goes on where the New shelf stops: no animation is on the screen twice.
    const hrefsOf = (of: Locator) => of.evaluateAll((found) => found.map((card) => card.querySelector('a[href^="/animations/"]')?.getAttribute("href")));
    const shown = [...(await hrefsOf(page.getByTestId("new-shelf").getByTestId("animation-card"))), ...(await hrefsOf(cards))];
    expect(shown.length).toBeGreaterThan(6);
    expect(new Set(shown).size).toBe(shown.length);
    await expect(cards.first().getByText("Premium", { exact: true })).toBeVisible();
    await expect(cards.first().getByText("View Full Animation")).toBeVisible();
    await expect(cards.first().getByText(/^\d+s$/)).toBeVisible();
  });

  test("filters by main category and subcategory; the active main category again clears", async ({ page }) => {
    await page.goto("/");
    const filters = page.getByRole("navigation", { name: "Filter by category" });
    await filters.getByRole("link", { name: "Plastic Surgery", exact: true }).click();
    await expect(page).toHaveURL(/\?category=plastic-surgery$/);
    await expect(filters.getByRole("link", { name: "All Plastic Surgery Procedures" })).toBeVisible();
    const subs = page.getByRole("list", { name: "Plastic Surgery subcategories" }).getByRole("link");
    const subNames = (await subs.allTextContents()).slice(1);
    expect(subNames.length).toBeGreaterThan(0);
    // Every card belongs to one of the main category's subcategories.
    for (const text of await page.getByTestId("animation-card").locator("p").allTextContents()) expect(subNames).toContain(text);

    await filters.getByRole("link", { name: subNames[0]!, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`\\?category=[a-z0-9_-]+$`));
    await expect(page.getByTestId("animation-card").first().locator("p")).toHaveText(subNames[0]!);

    await filters.getByRole("link", { name: "Plastic Surgery", exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(filters.getByRole("link", { name: "All Plastic Surgery Procedures" })).toHaveCount(0);
  });

  test("loads more animations: a link without JavaScript, infinite scroll with it", async ({ page }) => {
    await page.goto("/");
    const cards = listCards(page);
    await expect(cards).toHaveCount(6);
    if (isJs()) {
      await page.getByRole("link", { name: "Load More Animations" }).scrollIntoViewIfNeeded();
      await expect.poll(() => cards.count()).toBeGreaterThanOrEqual(12);
      // Without a reload; the address records the pages shown, for Back (home-list.spec.ts).
      await expect(page).toHaveURL(/\/\?page=\d+$/);
    } else {
      await page.getByRole("link", { name: "Load More Animations" }).click();
      await expect(page).toHaveURL(/\?page=2#page-2$/);
      await expect(cards).toHaveCount(12);
    }
    // No card twice (each card's picture repeats its title's link outside the tab order).
    const hrefs = await cards.locator("a:not([tabindex='-1'])").evaluateAll((links) => links.map((a) => a.getAttribute("href")));
    expect(hrefs).toHaveLength(await cards.count());
    expect(new Set(hrefs).size).toBe(hrefs.length);
  });
});

test.describe("search", () => {
  test("finds animations by term and says when nothing matches", async ({ page }) => {
    await page.goto("/search");
    const box = page.getByRole("searchbox", { name: "Search animations" });
    await box.fill("rhinoplasty");
    if (!isJs()) await box.press("Enter");
    await expect(page).toHaveURL(/\/search\?q=rhinoplasty$/);
    const titles = page.getByTestId("animation-card").getByRole("heading");
    await expect(titles.first()).toBeVisible();
    // The titles naming it first, then the rest of the procedure it names (as its misspelling finds them).
    const found = await titles.allTextContents();
    expect(found.slice(0, 2).every((title) => title.toLowerCase().includes("rhinoplasty"))).toBe(true);
    expect(found).toContain("Septoplasty for a Deviated Septum");

    await box.fill("zzzz-nothing-like-this");
    if (!isJs()) await box.press("Enter");
    await expect(page.getByText("No Results Found")).toBeVisible();
  });

  // Misspelt terms find the animations of the word meant, and offer it as a plain link.
  for (const [typed, meant] of [
    ["rhinoplsty", "rhinoplasty"],
    ["facelfit", "facelift"],
    ["cardiak", "cardiac"],
  ]) {
    test(`forgives "${typed}": shows the ${meant} animations and Did you mean ${meant}`, async ({ page }) => {
      await page.goto("/search");
      const box = page.getByRole("searchbox", { name: "Search animations" });
      await box.fill(typed);
      if (!isJs()) await box.press("Enter");
      await expect(page).toHaveURL(new RegExp(`/search\\?q=${typed}$`));
      const titles = page.getByTestId("animation-card").getByRole("heading");
      await expect(titles.first()).toContainText(meant, { ignoreCase: true });
      await expect(page.getByText(`nothing matched “${typed}”`)).toBeVisible();
      const didYouMean = page.getByRole("status").filter({ hasText: "Did you mean" });
      await didYouMean.getByRole("link", { name: meant, exact: true }).click();

      await expect(page).toHaveURL(new RegExp(`/search\\?q=${meant}$`));
      await expect(box).toHaveValue(meant);
      await expect(page.getByRole("status").filter({ hasText: "for “" })).toHaveText(new RegExp(`results? for “${meant}”$`));
      await expect(page.getByText("Did you mean")).toHaveCount(0);
      await expect(titles.first()).toContainText(meant, { ignoreCase: true });
    });
  }
});

test.describe("animation detail", () => {
  test("a visitor gets the preview (its first 10 seconds at most), no download and the licence links", async ({ page }) => {
    await page.goto("/");
    const slug = await firstCardSlug(page);
    await page.getByTestId("animation-card").first().getByRole("link").first().click();
    await expect(page).toHaveURL(new RegExp(`/animations/${slug}$`));
    const api = await apiAnimation(page, slug);
    expect(api.fullVideo).toBeNull();
    expect(api.downloadFile).toBeNull();
    await expect(page.getByRole("heading", { level: 1, name: api.title })).toBeVisible();
    await expect(page.getByTestId("animation-video")).toHaveAttribute("src", api.previewVideo!);
    // The newest card may be another test's upload, shorter than the cap: the badge says its own length.
    await expect(page.getByText(`${Math.min(10, api.duration)}-second preview`, { exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: "Download package (ZIP)" })).toHaveCount(0);
    await expect(page.getByText("Your License", { exact: true })).toHaveCount(0);
    await expect(page.getByTestId("animation-duration")).toHaveText(/^\d+:\d{2}$/);
    await expect(page.getByRole("link", { name: "Get Premium Access" })).toHaveAttribute("href", "/premium");
    await expect(page.getByRole("link", { name: `Individual License $${api.individualPrice}/year`, exact: true })).toHaveAttribute(
      "href",
      `/individual-license?animation=${api.id}`,
    );
    await expect(page.getByRole("link", { name: /Category License \$\d+\/year$/ })).toHaveAttribute("href", /^\/purchase\/category\//);
    await expect(page.getByRole("link", { name: "About category licenses" })).toHaveAttribute("href", "/category-license");
  });

  test("the player shows the English captions, the page offers the transcript and more to watch beside it", async ({ page }) => {
    await page.goto("/animations/open_rhinoplasty_reshaping_the_nasal_framework");
    // English first and on by default (the admin captions test may add other languages).
    const track = page.locator('[data-testid="animation-video"] track[kind="captions"]').first();
    await expect(track).toHaveAttribute("srclang", "en");
    await expect(track).toHaveAttribute("default", "");
    const vtt = await page.request.get((await track.getAttribute("src"))!);
    expect(vtt.ok()).toBe(true);
    expect(await vtt.text()).toMatch(/^WEBVTT\n[\s\S]*\[How The Procedure Works\]/);
    if (isJs()) {
      // The default track is showing once the cues have loaded.
      await expect
        .poll(() =>
          page.getByTestId("animation-video").evaluate((v: HTMLVideoElement) => `${v.textTracks[0]?.mode}:${(v.textTracks[0]?.cues?.length ?? 0) > 0}`),
        )
        .toBe("showing:true");
    }
    await expect(page.getByText("Show the transcript (English)")).toBeVisible();
    const more = page.getByRole("region", { name: "More in Rhinoplasty" });
    await expect(more.getByRole("link")).not.toHaveCount(0);
    await expect(page.getByRole("region", { name: "More from Dr. Sarah Mitchell" }).getByRole("link").first()).toBeVisible();
  });

  test("the description collapses to four lines with See more / See less", async ({ page }) => {
    // The animation with the longest description (the short ones have no toggle).
    const { animations } = await (await page.request.get("/api/animations?limit=100")).json();
    const longest = animations.sort((a: { description: string }, b: { description: string }) => b.description.length - a.description.length)[0];
    // The seed writes multi-paragraph descriptions: one of them must be long enough to collapse.
    expect(longest.description.length).toBeGreaterThan(280);
    await page.goto(`/animations/${longest.slug}`);
    const description = page.getByTestId("animation-description");
    const seeMore = page.getByText("See more", { exact: true });
    await expect(seeMore).toBeVisible();
    const collapsed = (await description.boundingBox())!.height;
    await seeMore.click();
    await expect(page.getByText("See less", { exact: true })).toBeVisible();
    expect((await description.boundingBox())!.height).toBeGreaterThan(collapsed);
    await page.getByText("See less", { exact: true }).click();
    await expect(seeMore).toBeVisible();
  });

  test("the premium member streams the full video; downloads only what is licensed", async ({ page }) => {
    await signIn(page, MEMBER.email, MEMBER.password);
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Welcome to Your Premium Library" })).toBeVisible();
    await expect(page.getByText("Enjoy unlimited access to all doctor-verified medical animations")).toBeVisible();
    await expect(page.getByRole("link", { name: "Get Premium Access" })).toHaveCount(0);
    await expect(page.getByTestId("animation-card").first().getByText("Watch Animation")).toBeVisible();

    // The member's individual licence (from the seed): found through the search.
    await page.goto("/search?q=open%20rhinoplasty");
    await page.getByTestId("animation-card").first().getByRole("link").first().click();
    await page.waitForURL(/\/animations\//);
    const licensed = await apiAnimation(page, page.url().split("/").pop()!);
    expect(licensed.fullVideo).not.toBeNull();
    await expect(page.getByTestId("animation-video")).toHaveAttribute("src", licensed.fullVideo!);
    // The licence card links the package made from the animation's files (the seed's extra and captions at least), not the uploaded zip.
    const licenceCard = page.locator("section").filter({ has: page.getByRole("heading", { level: 2, name: "Your License" }) });
    await expect(licenceCard.getByRole("link", { name: "Download package (ZIP)", exact: true })).toHaveAttribute("href", `/packages/${licensed.slug}.zip`);
    await expect(licenceCard.getByRole("link", { name: "All your downloads" })).toHaveAttribute("href", "/my-animations");

    // Any other animation outside the licensed categories: full video, and the download offer.
    await page.goto("/?category=dermatology");
    await page.getByTestId("animation-card").first().getByRole("link").first().click();
    await page.waitForURL(/\/animations\//);
    const other = await apiAnimation(page, page.url().split("/").pop()!);
    expect(other.downloadFile).toBeNull();
    await expect(page.getByTestId("animation-video")).toHaveAttribute("src", other.fullVideo!);
    await expect(page.getByRole("heading", { name: "Add Download Rights" })).toBeVisible();
    await expect(page.getByRole("link", { name: `Individual License $${other.individualPrice}/year`, exact: true })).toHaveAttribute(
      "href",
      `/individual-license?animation=${other.id}`,
    );
    await expect(page.getByRole("link", { name: "Download package (ZIP)" })).toHaveCount(0);
  });

  test("the misuse report needs email and message and thanks the reporter", async ({ page }) => {
    await page.goto("/");
    await page.getByTestId("animation-card").first().getByRole("link").first().click();
    const report = page.getByTestId("misuse-report");
    await report.getByText("Report Misuse").click();
    const submit = report.getByRole("button", { name: "Submit Report" });
    if (isJs()) await expect(submit).toBeDisabled();
    await report.getByLabel("Your email").fill("watcher@example.com");
    await report.getByLabel("What is the problem?").fill("This animation is embedded on a clinic site without a licence.");
    await report.getByLabel("Link (optional)").fill("https://clinic.example.com/page");
    await expect(submit).toBeEnabled();
    await submit.click();
    await expectToast(page, "Report submitted successfully", "Thank you for reporting this issue. We will investigate it promptly.");
    // Closed and cleared after success.
    await expect(report.getByLabel("Your email")).toBeHidden();
  });

  test("a misuse report given bad input says what is wrong beside each field", async ({ page }) => {
    await page.goto("/");
    await page.getByTestId("animation-card").first().getByRole("link").first().click();
    const report = page.getByTestId("misuse-report");
    await report.getByText("Report Misuse").click();
    const email = report.getByLabel("Your email");
    const message = report.getByLabel("What is the problem?");
    const submit = report.getByRole("button", { name: "Submit Report" });
    if (!isJs()) {
      // Submit is disabled until both are filled only with JavaScript: the browser sends an empty
      // report (the form is `novalidate`) and the page comes back open with the server's words.
      await submit.click();
      await expectFieldError(email, "Email is required");
      await expectFieldError(message, "Message is required");
    }
    await email.fill("not-an-email");
    await message.fill("Embedded on a clinic site without a licence.");
    await report.getByLabel("Link (optional)").fill("the clinic's site");
    await submit.click();
    await expectFieldError(email, "Must be a valid email");
    await expectFieldError(report.getByLabel("Link (optional)"), "Must be a valid URL");
    await expect(message).toHaveValue("Embedded on a clinic site without a licence.");
  });

  test("/animation/{slug} redirects to the detail page", async ({ page }) => {
    await page.goto("/");
    const slug = await firstCardSlug(page);
    await page.goto(`/animation/${slug}`);
    await expect(page).toHaveURL(new RegExp(`/animations/${slug}$`));
  });
});

test.describe("categories", () => {
  test("main category, subcategory and the detail within it", async ({ page }) => {
    await page.goto("/category/plastic-surgery");
    await expect(page.getByRole("heading", { level: 1, name: "Plastic Surgery" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Specialties" })).toBeVisible();
    const specialty = page.getByTestId("specialty-card").first();
    const name = (await specialty.getByRole("heading").textContent())!;
    await expect(specialty.getByText(/^\d+ animations?$/)).toBeVisible();
    await specialty.getByRole("link", { name: `View Animations: ${name}` }).click();
    await expect(page).toHaveURL(/\/category\/plastic-surgery\/[a-z0-9_-]+$/);
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    await expect(page.getByRole("link", { name: "← Back to Plastic Surgery" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Buy Category Access" })).toHaveAttribute("href", /^\/purchase\/category\//);
    await expect(page.getByText(/^Access all \d+ animations$/)).toBeVisible();
    const card = page.getByTestId("animation-card").first();
    await expect(card.getByText(/^\d+:\d{2}$/)).toBeVisible();
    // An individual licence runs for a year and renews: its price says so.
    await expect(card.getByText(/^\$\d+\/year$/)).toBeVisible();
    const title = (await card.getByRole("heading").textContent())!;
    await card.getByRole("link", { name: `Watch: ${title}` }).click();
    await expect(page).toHaveURL(/\/category\/plastic-surgery\/[a-z-]+\/[a-z0-9_-]+$/);
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  });

  test("the category listing of a subcategory", async ({ page }) => {
    await page.goto("/category/plastic-surgery");
    const subHref = await page.getByTestId("specialty-card").first().getByRole("link").getAttribute("href");
    const subSlug = subHref!.split("/").pop()!;
    await page.goto(`/category/${subSlug}`);
    await expect(page.getByText(/^Category License: \$\d+\/year$/)).toBeVisible();
    await expect(page.getByText(/^\d+ animations?$/).first()).toBeVisible();
    const card = page.getByTestId("animation-card").first();
    await expect(card.getByText("Premium", { exact: true })).toBeVisible();
    await expect(card.getByText(/^[\d,]+ views$/)).toBeVisible();
    await card.getByRole("link", { name: /^Watch Preview: / }).click();
    await expect(page).toHaveURL(/\/animations\/[a-z0-9_-]+$/);
    // The legacy route moved here for good.
    await page.goto(`/legacy/category/${subSlug}`);
    await expect(page).toHaveURL(new RegExp(`/category/${subSlug}$`));
  });
});

test.describe("doctor profile", () => {
  test("reached from an animation, with About, verified animations and the way back", async ({ page }) => {
    await page.goto("/");
    await page.getByTestId("animation-card").first().getByRole("link").first().click();
    const doctorLink = page.getByRole("region", { name: "Doctors" }).getByRole("link").first();
    const doctorName = (await doctorLink.locator("span > span").first().textContent())!;
    await doctorLink.click();
    await expect(page).toHaveURL(/\/doctors\/[a-z0-9_-]+$/);
    await expect(page.getByRole("heading", { level: 1, name: doctorName })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Verified Animations" })).toBeVisible();
    await expect(
      page
        .getByTestId("animation-card")
        .first()
        .getByText(/^\d+:\d{2}$/),
    ).toBeVisible();
    const showMore = page.getByText("Show more", { exact: true });
    if (await showMore.count()) {
      await expect(page.getByTestId("about-full")).toBeHidden();
      await showMore.click();
      await expect(page.getByTestId("about-full")).toBeVisible();
      await page.getByText("Show less", { exact: true }).click();
      await expect(page.getByTestId("about-full")).toBeHidden();
    }
    await page.getByRole("link", { name: "← Back to Library" }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});

test.describe("not found", () => {
  for (const [path, heading] of [
    ["/animations/no-such-animation", "Animation Not Found"],
    ["/category/no-such-category", "Category Not Found"],
    ["/category/plastic-surgery/no-such-sub", "Category Not Found"],
    ["/doctors/no-such-doctor", "Doctor Not Found"],
  ] as const) {
    test(`${path} answers 404 with "${heading}"`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    });
  }
});
