import { expect, type Page, test } from "@playwright/test";
import { gotoWithoutReact } from "../helpers.ts";

// Pages that do not hydrate (decision 025): while the page a link leads to loads as a document,
// six skeleton cards stand in for the list it will replace (the product's loading state), as the
// hydrated screens showed them during a client-side change. Playwright cannot read a page whose
// navigation has started, so the page itself notes what it shows the moment the link is pressed
// (after the static page script's own handler), and the next document reads the note back.

type Pressed = { skeletons: number; visibleItems: number };

async function noteWhatIsShownOnPress(page: Page, items: string) {
  await page.evaluate((selector) => {
    document.addEventListener("click", () => {
      const region = document.querySelector("[data-stand-in-for]")!;
      const note: Pressed = {
        skeletons: [...region.querySelectorAll('[data-testid="animation-card-skeleton"]')].filter((e) => e.checkVisibility()).length,
        visibleItems: [...region.querySelectorAll(selector)].filter((e) => e.checkVisibility()).length,
      };
      sessionStorage.setItem("pressed", JSON.stringify(note));
    });
  }, items);
}

const pressed = async (page: Page) => JSON.parse((await page.evaluate(() => sessionStorage.getItem("pressed"))) ?? "null") as Pressed | null;

test("a filter on the home page: six skeleton cards stand in for the list until its page comes", async ({ page }) => {
  await page.goto("/");
  const list = page.getByRole("region", { name: "Animations" });
  await expect(list.getByTestId("animation-card")).toHaveCount(6);
  await noteWhatIsShownOnPress(page, '[data-testid="animation-card"]');
  await page.getByRole("navigation", { name: "Filter by category" }).getByRole("link", { name: "Cardiology" }).click();
  await expect(page).toHaveURL(/\/\?category=cardiology$/);
  expect(await pressed(page)).toEqual({ skeletons: 6, visibleItems: 0 });
  // The filter's page: its cards, no skeleton.
  await expect(list.getByTestId("animation-card").first()).toBeVisible();
  await expect(list.getByTestId("animation-card-skeleton")).toHaveCount(0);
});

test("a main category's specialties give way to six skeleton cards while a specialty's page loads", async ({ page }) => {
  await page.goto("/category/cardiology");
  const specialties = page.getByTestId("specialty-card");
  await expect(specialties.first()).toBeVisible();
  await noteWhatIsShownOnPress(page, '[data-testid="specialty-card"]');
  await specialties
    .first()
    .getByRole("link", { name: /^View Animations:/ })
    .click();
  await expect(page).toHaveURL(/\/category\/cardiology\/[^/]+$/);
  expect(await pressed(page)).toEqual({ skeletons: 6, visibleItems: 0 });
  await expect(page.getByTestId("animation-card-skeleton")).toHaveCount(0);
});

test("a card's own link shows no skeleton: the animation page is not a list", async ({ page }) => {
  await page.goto("/");
  await noteWhatIsShownOnPress(page, '[data-testid="animation-card"]');
  await page.getByRole("region", { name: "Animations" }).getByTestId("animation-card").first().getByRole("heading").click();
  await expect(page).toHaveURL(/\/animations\//);
  expect(await pressed(page)).toEqual({ skeletons: 0, visibleItems: 6 });
});

test("search as you type: results in place, no React, the address kept; an emptied box asks again", async ({ page }) => {
  await gotoWithoutReact(page, "/search");
  // The results must come without a document load: the mark lives only as long as the document.
  await page.evaluate(() => ((window as unknown as { searchMark: string }).searchMark = "kept"));
  const box = page.getByRole("searchbox", { name: "Search animations" });
  await box.pressSequentially("rhinoplasty");
  await expect(page).toHaveURL(/\/search\?q=rhinoplasty$/);
  await expect(page.getByRole("status").filter({ hasText: "for “rhinoplasty”" })).toBeVisible();
  await expect(page).toHaveTitle(/^Search: rhinoplasty/);
  const titles = page.getByTestId("animation-card").getByRole("heading");
  // The titles naming the term first; then the rest of the procedure it names.
  const found = await titles.allTextContents();
  expect(found.slice(0, 2).every((title) => title.toLowerCase().includes("rhinoplasty"))).toBe(true);
  expect(found).toContain("Septoplasty for a Deviated Septum");
  await expect(page.getByRole("region", { name: "Search results" })).toHaveAttribute("aria-busy", "false");

  await box.fill("");
  await expect(page.getByText("Type a procedure, an anatomy term or a title to find animations.")).toBeVisible();
  await expect(page.getByTestId("animation-card")).toHaveCount(0);
  // Enter on a blank term asks nothing.
  await box.press("Enter");
  await expect(page).toHaveURL(/\/search\?q=rhinoplasty$/);
  expect(await page.evaluate(() => (window as unknown as { searchMark?: string }).searchMark)).toBe("kept");

  // A reload shows what the address says, as the server renders it.
  await page.reload();
  await expect(box).toHaveValue("rhinoplasty");
  await expect(page.getByRole("status").filter({ hasText: "for “rhinoplasty”" })).toBeVisible();
});

test("the Help Center loads no React: a chosen category applies at once, and an opened question counts one view", async ({ page }) => {
  const views: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && /\/api\/faqs\/[^/]+\/view$/.test(request.url())) views.push(new URL(request.url()).pathname);
  });
  await gotoWithoutReact(page, "/help");

  const question = page.locator("main details").first();
  const id = (await question.getAttribute("id"))!.replace(/^faq-/, "");
  await question.locator("summary").click();
  await expect(question.locator(".rich-text")).toBeVisible();
  await expect.poll(() => views).toEqual([`/api/faqs/${id}/view`]);
  // Closed and opened again in the same visit: still one view.
  await question.locator("summary").click();
  await question.locator("summary").click();
  await expect(question).toHaveAttribute("open", "");
  await page.waitForTimeout(300);
  expect(views).toHaveLength(1);

  const select = page.getByLabel("Category");
  const categoryName = (await select.locator("option").nth(1).innerText()).trim();
  await select.selectOption({ label: categoryName });
  // No press of "Search": the choice loads its page.
  await expect(page).toHaveURL(/[?&]category=/);
  const groups = page.getByRole("main").getByRole("heading", { level: 2 }).filter({ hasNotText: "Still need help?" });
  await expect(groups).toHaveText([categoryName]);
});

test("the contact form loads no React: it says what is wrong in the server's words before it is sent, and again as each field is fixed", async ({ page }) => {
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST") posts.push(new URL(request.url()).pathname);
  });
  await gotoWithoutReact(page, "/contact");
  const name = page.getByLabel("Name", { exact: true });
  const email = page.getByLabel("Email", { exact: true });
  const message = page.getByLabel("Message", { exact: true });
  await email.fill("not-an-email");
  await message.fill("short");
  await page.getByRole("button", { name: "Send Message" }).click();
  for (const text of ["Name is required", "Must be a valid email", "Subject is required", "Category is required", "Message must be at least 10 characters"]) {
    await expect(page.getByText(text)).toBeVisible();
  }
  // Nothing was sent; the first field that fails has the focus and names its message.
  expect(posts).toEqual([]);
  await expect(name).toBeFocused();
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(name).toHaveAccessibleDescription("Name is required");

  // Each field is checked again as it is typed in.
  await name.fill("Grace Hopper");
  await expect(page.getByText("Name is required")).toHaveCount(0);
  await expect(name).not.toHaveAttribute("aria-invalid");
  await email.fill("grace@example.com");
  await page.getByLabel("Subject", { exact: true }).fill("A question about licences");
  await page.getByLabel("Category", { exact: true }).selectOption("billing");
  await expect(page.getByText("Category is required")).toHaveCount(0);
  await message.fill("Can a category licence cover two clinics?");
  await expect(page.getByRole("main").getByRole("listitem")).toHaveCount(0);

  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByText("Thank you! Your message has been sent. Our team will respond within 24 hours.")).toBeVisible();
  expect(posts).toEqual(["/contact"]);
});

test("sign-up loads no React: every message before anything is sent, the confirmation checked as either password changes", async ({ page }) => {
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST") posts.push(new URL(request.url()).pathname);
  });
  await gotoWithoutReact(page, "/auth?mode=signup");
  await page.getByLabel("Username").fill("grace hopper");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByLabel("Password", { exact: true }).fill("123");
  await page.getByLabel("Confirm password").fill("456");
  await page.getByRole("button", { name: "Create Account" }).click();
  for (const text of [
    "First name is required",
    "Last name is required",
    "Username may contain only letters, digits, dots, dashes and underscores",
    "Invalid email address",
    "Password must be at least 6 characters",
    "Passwords don't match",
    "You must agree to the Terms of Service and Privacy Policy",
  ]) {
    await expect(page.getByText(text)).toBeVisible();
  }
  expect(posts).toEqual([]);
  await expect(page.getByLabel("First name")).toBeFocused();

  // The confirmation follows the password as either is typed.
  const confirm = page.getByLabel("Confirm password");
  await page.getByLabel("Password", { exact: true }).fill("456");
  await expect(page.getByText("Password must be at least 6 characters")).toBeVisible();
  await expect(page.getByText("Passwords don't match")).toHaveCount(0);
  await expect(confirm).not.toHaveAttribute("aria-invalid");
  await page.getByLabel("Password", { exact: true }).fill("4567890");
  await expect(page.getByText("Passwords don't match")).toBeVisible();
  await expect(confirm).toHaveAccessibleDescription("Passwords don't match");
  await page.getByLabel(/I agree to the/).check();
  await expect(page.getByText("You must agree to the Terms of Service and Privacy Policy")).toHaveCount(0);
});

test("sign-in loads no React: the passkey button stands where the note does without JavaScript", async ({ page }) => {
  await gotoWithoutReact(page, "/auth");
  await expect(page.getByRole("button", { name: "Continue with a passkey" })).toBeVisible();
  await expect(page.getByText("Passkeys need JavaScript in your browser.")).toBeHidden();
});
