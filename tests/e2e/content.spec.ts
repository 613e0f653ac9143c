import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { ADMIN, aYearFromToday, DATA_DIR, expectFieldError, MEMBER, signIn, signUp, uniqueUser, withSettingsLock } from "./helpers.ts";

const LONG_US_DATE = /Last updated (January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{4}/;

test.describe("content pages", () => {
  for (const [path, title] of [
    ["/terms-of-service", "Terms of Service"],
    ["/privacy-policy", "Privacy Policy"],
    ["/about", "About Us"],
  ] as const) {
    test(`${path} shows its title, content, meta description and "Last updated"`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { level: 1 })).toHaveText(title);
      await expect(main.getByText(LONG_US_DATE)).toBeVisible();
      // Real prose, rendered as HTML: more than the heading.
      expect((await main.locator("article").innerText()).length).toBeGreaterThan(200);
      await expect(page).toHaveTitle(new RegExp(title));
      await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /\S/);
    });
  }

  test("/pages/{slug} renders the same page", async ({ page }) => {
    await page.goto("/pages/privacy-policy");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Privacy Policy");
  });

  test("footer links lead to the content pages", async ({ page }) => {
    // Not from the home page: with JavaScript its list grows when the footer comes near, and the
    // footer moves from under the pointer (the infinite list's nature, not the footer's).
    await page.goto("/premium");
    const footer = page.getByRole("contentinfo");
    await footer.getByRole("link", { name: "Terms of Service" }).click();
    await expect(page).toHaveURL(/\/terms-of-service$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Terms of Service");
    await page.getByRole("contentinfo").getByRole("link", { name: "About Us" }).click();
    await expect(page).toHaveURL(/\/about$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("About Us");
    await page.getByRole("contentinfo").getByRole("link", { name: "Contact" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Contact Support");
  });

  test("an unknown slug answers 404 with 'Page Not Found' and a Go Home button", async ({ page }) => {
    const response = await page.goto("/no-such-page-here");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
    await page.getByRole("link", { name: "Go Home" }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});

async function expectOneOpenFaq(page: Page, count = 10) {
  const items = page.locator("main details");
  await expect(items).toHaveCount(count);
  await items.nth(0).locator("summary").click();
  await expect(items.nth(0)).toHaveAttribute("open", "");
  await items.nth(1).locator("summary").click();
  await expect(items.nth(1)).toHaveAttribute("open", "");
  // <details name>: opening one closes the other.
  await expect(items.nth(0)).not.toHaveAttribute("open", "");
  await items.nth(1).locator("summary").click();
  await expect(items.nth(1)).not.toHaveAttribute("open", "");
}

test.describe("premium and licence pages", () => {
  test("premium: $9/month billed annually at $99/year, benefits, testimonial, 10 FAQs, sign in to buy", async ({ page }) => {
    // The admin settings test changes this price for a moment.
    await withSettingsLock(() => page.goto("/premium"));
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { name: "Premium – Annual Plan" })).toBeVisible();
    await expect(main.getByText("$9", { exact: true })).toBeVisible();
    await expect(main.getByText("$99/year")).toBeVisible();
    await expect(main.getByText("30-day money-back guarantee").first()).toBeVisible();
    await expect(main.getByText("Dr. Emily Carter", { exact: false })).toBeVisible();
    await expectOneOpenFaq(page);
    await main.getByRole("link", { name: "Get Premium Access" }).click();
    await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fpremium$/);
  });

  test("premium for a signed-in user: a real checkout, plainly in test mode", async ({ page }) => {
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.goto("/premium");
    await expect(page.getByRole("button", { name: "Get Premium Access" })).toBeEnabled();
    await expect(page.getByRole("note")).toHaveText("Test mode — no real payments");
  });

  test("premium for a member who already has it: the 'already have premium' page", async ({ page }) => {
    await signIn(page, MEMBER.email, MEMBER.password);
    await page.goto("/premium");
    await expect(page.getByRole("heading", { name: "You Already Have Premium" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Get Premium Access" })).toHaveCount(0);
  });

  test("individual licence: the animation's price, benefits, what it covers, 10 FAQs, the button asks a visitor to sign in", async ({ page }) => {
    // An unknown animation: the price every animation starts from (each has its own).
    await page.goto("/individual-license?animation=some-animation");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText("Individual Animation License");
    await expect(main.getByText(/^\$\d+$/).first()).toBeVisible();
    // The demo's files are MP4s, 480×270 and one 1920×1080: the page claims what they are, and no more.
    // The formats come from the pipeline's download files (getCatalogueClaims): the demo's uploaded
    // extras hold no video and its masters are not transcoded in e2e, so no format is named until
    // this run's server has transcoded an upload (streaming-source.ts) or an upload's zip holds a video.
    for (const benefit of [
      "Access to the full animation in up to 1080p (Full HD)",
      /^Download of the files( \((MP4|MP4 and WebM)\))?$/,
      "Commercial usage rights",
    ]) {
      await expect(main.getByText(benefit, { exact: true })).toBeVisible();
    }
    // What one licence covers, from the licence terms record, and its yearly term: not the category licences' prices.
    await expect(main.getByRole("region", { name: "Available Specialties" })).toHaveCount(0);
    const coverage = main.getByRole("region", { name: "What an Individual License Covers" });
    await expect(coverage.getByRole("term")).toHaveText(["While the license is active", "How long it runs", "When the license ends", "Never allowed"]);
    await expect(coverage.getByRole("definition").first()).toContainText("An individual license covers one animation");
    await expect(coverage.getByRole("definition").first()).toContainText("download");
    await expect(coverage.getByRole("definition").first()).toContainText("embed them on the websites registered for the license");
    await expect(coverage.getByText(`One year of access, until ${aYearFromToday()}`)).toBeVisible();
    await expect(
      coverage.getByText(/^Renews automatically on .+ at (the same price \(from )?\$\d+\/year\)? until you turn it off in Billing → Auto-renew\.$/),
    ).toBeVisible();
    await expect(coverage.getByRole("link", { name: /^License terms, version \d+$/ })).toHaveAttribute("href", "/terms-of-service");
    // No animation named: the way to choose one.
    await expect(coverage.getByRole("link", { name: "search the catalogue" })).toHaveAttribute("href", "/search");
    await expectOneOpenFaq(page);
    await main.getByRole("link", { name: "License This Animation" }).click();
    await expect(page).toHaveURL(/\/auth\?redirectTo=%2Findividual-license%3Fanimation%3Dsome-animation$/);
  });

  test("individual licence without an animation sends a signed-in user home", async ({ page }) => {
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.goto("/individual-license");
    await page.getByRole("main").getByRole("link", { name: "License This Animation" }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test("checkout pages show the licence, its price and the way to pay, in test mode", async ({ page }) => {
    const { animations } = await (await page.request.get("/api/animations?limit=1&light=true")).json();
    const animation = animations[0];
    await signUp(page);
    await page.goto(`/individual-license?animation=${animation.id}`);
    await page.getByRole("main").getByRole("link", { name: "License This Animation" }).click();
    await expect(page).toHaveURL(new RegExp(`/purchase/individual/${animation.id}$`));
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText("Checkout");
    await expect(main.getByRole("heading", { level: 2 })).toHaveText(`Individual license: ${animation.title}`);
    // The price the catalogue shows for it is the price asked here.
    await expect(main.getByText(`$${animation.individualPrice}`, { exact: true })).toBeVisible();
    await expect(main.getByRole("note")).toHaveText("Test mode — no real payments");
    await expect(main.getByRole("button", { name: "Continue to Payment" })).toBeEnabled();

    await page.goto("/global-license");
    await page
      .getByRole("main")
      .getByRole("link", { name: /^License / })
      .first()
      .click();
    await expect(page).toHaveURL(/\/purchase\/category\/[^/]+$/);
    // With JavaScript the address changes before the new page is drawn: its one h1 first, then its h2
    // (the list page just left has several h2s, which a strict locator refuses rather than waits out).
    await expect(page.getByRole("main").getByRole("heading", { level: 1 })).toHaveText("Checkout");
    await expect(page.getByRole("main").getByRole("heading", { level: 2 })).toHaveText(/^Category license: /);
    await expect(page.getByRole("main").getByRole("button", { name: "Continue to Payment" })).toBeEnabled();
  });

  test("category licence: title, price, specialties with the catalogue's counts, 10 FAQs, then /global-license", async ({ page, request }) => {
    await page.goto("/category-license");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText("Category License – Annual Plan");
    await expect(main.getByText(/^\$\d+$/)).toBeVisible();
    const specialties = main.getByRole("region", { name: "Available Specialties" });
    type Sub = { name: string; slug: string; yearlyPrice: number; animationCount: number };
    const catalogue: Array<{ name: string; slug: string; subcategories: Sub[] }> = await (await request.get("/api/categories/main")).json();
    expect(catalogue.map((c) => c.name)).toEqual(expect.arrayContaining(["Plastic Surgery", "Dermatology", "Cardiology", "Orthopedics", "Neurology"]));
    for (const main of catalogue) {
      // Only sub-specialties are sold: a main category is a heading, never an offer of its own.
      await expect(specialties.getByRole("link", { name: new RegExp(`^${main.name}`) })).toHaveCount(0);
      for (const sub of main.subcategories) {
        const row = specialties.getByRole("link", { name: new RegExp(`^${sub.name}`) });
        await expect(row).toHaveAttribute("href", `/category/${main.slug}/${sub.slug}`);
        await expect(row).toContainText(`$${sub.yearlyPrice}/year`);
        await expect(row).toContainText(`${sub.animationCount} animation`);
      }
    }
    await expectOneOpenFaq(page);
    await main.getByRole("link", { name: "Get Category License" }).click();
    // Signed in, the visitor goes on to choosing a category, the step the button leads to.
    await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fglobal-license$/);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.goto("/category-license");
    await page.getByRole("main").getByRole("link", { name: "Get Category License" }).click();
    await expect(page).toHaveURL(/\/global-license$/);
    await expect(page.getByRole("heading", { name: "Choose a Category to License" })).toBeVisible();
  });
});

test.describe("help center", () => {
  test("search, category filter and the empty state", async ({ page }) => {
    await page.goto("/help");
    await expect(page.getByRole("heading", { level: 1, name: "Help Center" })).toBeVisible();
    const questions = page.locator("main details summary > span:first-child");
    expect(await questions.count()).toBeGreaterThan(0);

    // Search for a word of the first question: that FAQ is found.
    const first = (await questions.first().innerText()).trim();
    const word = first.split(/\W+/).filter((w) => w.length > 4)[0] ?? first;
    await page.getByLabel("Search FAQs").fill(word);
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(word)}`));
    await expect(page.locator("main details summary > span:first-child").filter({ hasText: first })).toBeVisible();

    // Filter by the first category: only its group is shown.
    await page.goto("/help");
    const select = page.getByLabel("Category");
    const option = select.locator("option").nth(1);
    const categoryName = (await option.innerText()).trim();
    await select.selectOption({ label: categoryName });
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/category=/);
    const groups = page.getByRole("main").getByRole("heading", { level: 2 }).filter({ hasNotText: "Still need help?" });
    await expect(groups).toHaveText([categoryName]);

    await page.getByLabel("Search FAQs").fill("zzqx-nothing-matches");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByText("No FAQs found matching your search")).toBeVisible();
  });

  test("opening a question shows its answer", async ({ page }) => {
    await page.goto("/help");
    const item = page.locator("main details").first();
    await item.locator("summary").click();
    await expect(item).toHaveAttribute("open", "");
    await expect(item.locator(".rich-text")).toBeVisible();
  });
});

test.describe("contact", () => {
  test("shows the product's validation messages beside their fields", async ({ page }) => {
    await page.goto("/contact");
    await expect(page.getByText("Mon-Fri 9AM-5PM PST")).toBeVisible();
    // Without JavaScript the browser sends the form as it is (it is `novalidate`) and the server
    // answers with these words; with it the page's script shows the same ones first.
    await page.getByLabel("Email", { exact: true }).fill("not-an-email");
    await page.getByLabel("Message", { exact: true }).fill("short");
    await page.getByRole("button", { name: "Send Message" }).click();
    for (const [label, message] of [
      ["Name", "Name is required"],
      ["Email", "Must be a valid email"],
      ["Subject", "Subject is required"],
      ["Category", "Category is required"],
      ["Message", "Message must be at least 10 characters"],
    ] as const) {
      await expectFieldError(page.getByLabel(label, { exact: true }), message);
    }
  });

  test("sends a message and shows the success text", async ({ page }) => {
    const user = uniqueUser();
    await page.goto("/contact");
    await page.getByLabel("Name", { exact: true }).fill(`${user.firstName} ${user.lastName}`);
    await page.getByLabel("Email", { exact: true }).fill(user.email);
    const subject = `Question about licences ${user.username}`;
    await page.getByLabel("Subject", { exact: true }).fill(subject);
    await page.getByLabel("Category", { exact: true }).selectOption("billing");
    await page.getByLabel("Message", { exact: true }).fill("Can a category licence cover two clinics?");
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByText("Thank you! Your message has been sent. Our team will respond within 24 hours.")).toBeVisible();
    // Stored and e-mailed to the support inbox (the e2e server writes mail to its outbox).
    const outbox = path.join(DATA_DIR, "outbox");
    await expect
      .poll(() =>
        fs.existsSync(outbox)
          ? fs.readdirSync(outbox).some((f) => f.includes("support@") && fs.readFileSync(path.join(outbox, f), "utf8").includes(user.username))
          : false,
      )
      .toBe(true);
  });

  test("prefills name and email for a signed-in user", async ({ page }) => {
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.goto("/contact");
    await expect(page.getByLabel("Email", { exact: true })).toHaveValue(ADMIN.email);
    await expect(page.getByLabel("Name", { exact: true })).not.toHaveValue("");
  });
});
