import crypto from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { ADMIN, expectToast, MEMBER, signIn, withSettingsLock } from "./helpers.ts";

// The back office's first half in both projects: without JavaScript every form posts (files as
// multipart) and every confirmation is a server-rendered step; with JavaScript files upload
// directly with a percentage and confirmations are dialogs. Names are unique per run (both
// projects share one server).

const unique = () => crypto.randomBytes(3).toString("hex");

const FILES = {
  cover: { name: "cover.jpg", mimeType: "image/jpeg", buffer: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), crypto.randomBytes(2048)]) },
  video: { name: "full.mp4", mimeType: "video/mp4", buffer: Buffer.concat([Buffer.from("\x00\x00\x00\x18ftypisom", "latin1"), crypto.randomBytes(4096)]) },
  download: { name: "pack.zip", mimeType: "application/zip", buffer: Buffer.concat([Buffer.from("PK\x03\x04", "latin1"), crypto.randomBytes(1024)]) },
};

async function asAdmin(page: Page) {
  await signIn(page, ADMIN.email, ADMIN.password);
}

/** Chooses a file; with JavaScript, waits for its direct upload to finish. */
async function chooseFile(page: Page, label: string, file: (typeof FILES)[keyof typeof FILES], javaScriptEnabled: boolean) {
  await page.getByLabel(label, { exact: true }).setInputFiles(file);
  if (javaScriptEnabled) await expect(page.getByText(`Uploaded ${file.name}`)).toBeVisible();
}

/** Confirms in whichever form the step takes: the server's panel or the dialog. */
function confirmStep(page: Page) {
  return page.getByRole("alertdialog").or(page.getByRole("dialog"));
}

test("a member who opens /admin is sent home, a visitor to sign in", async ({ page }) => {
  await page.goto("/admin/animations");
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fadmin%2Fanimations$/);
  await signIn(page, MEMBER.email, MEMBER.password);
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { name: "Admin Dashboard" })).toHaveCount(0);
});

test("dashboard: the four cards, the revenue chart's figures and the sidebar", async ({ page }) => {
  await asAdmin(page);
  await page.goto("/admin");
  for (const label of ["Total Users", "Active Subscriptions", "Total Animations", "Monthly Revenue"]) {
    await expect(page.getByText(label, { exact: true })).toBeVisible();
  }
  await expect(page.getByRole("img", { name: /Revenue per month/ })).toBeVisible();
  await page.getByText("Show the figures").click();
  await expect(page.getByRole("table", { name: "Revenue per month, last 12 months" }).getByRole("row")).toHaveCount(13);
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Audit Log" }).click();
  await expect(page.getByRole("heading", { name: "Audit Log" })).toBeVisible();
});

test("animations: create with a cover upload (a draft, not public), edit, delete after confirming", async ({ page, javaScriptEnabled }) => {
  await asAdmin(page);
  const title = `Tonsillectomy ${unique()}`;
  await page.goto("/admin/animations");
  await page.getByRole("link", { name: "New Animation" }).click();
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Description").fill("Removing the tonsils, step by step.");
  await page.getByLabel("Category").selectOption({ index: 2 });
  await expect(page.getByLabel("Duration (seconds)")).toHaveValue("120");
  await expect(page.getByText("Shown as 2:00")).toBeVisible();
  await chooseFile(page, "Cover image", FILES.cover, javaScriptEnabled);
  await chooseFile(page, "Full video", FILES.video, javaScriptEnabled);
  await chooseFile(page, "Download file", FILES.download, javaScriptEnabled);
  await page.getByRole("button", { name: "Create Animation" }).click();
  await expectToast(page, "Animation Created");

  await page.goto(`/admin/animations?search=${encodeURIComponent(title)}`);
  const row = page.getByRole("row").filter({ hasText: title });
  await expect(row.locator("img")).toHaveAttribute("src", /^\/objects\/uploads\//);
  await row.getByRole("link", { name: "Edit" }).click();
  await page.getByLabel("Description").fill("Removing the tonsils, explained for patients.");
  await page.getByRole("button", { name: "Save Animation" }).click();
  await expectToast(page, "Animation Updated");
  // A draft until its video is processed, reviewed and published (decision 032; admin-publishing.spec.ts).
  const slug = title.toLowerCase().replace(/\s+/g, "_");
  expect((await page.request.get(`/animations/${slug}`)).status()).toBe(404);

  await page.goto(`/admin/animations?search=${encodeURIComponent(title)}`);
  await page.getByRole("row").filter({ hasText: title }).getByRole("link", { name: "Delete" }).click();
  await expect(confirmStep(page).getByText("Are you sure you want to delete this animation?")).toBeVisible();
  await confirmStep(page).getByRole("button", { name: "Delete" }).click();
  await expectToast(page, "Animation Deleted");
  await expect(page.getByText("No animations found")).toBeVisible();
});

test("doctors: create, edit and delete after confirming; the public profile follows", async ({ page }) => {
  await asAdmin(page);
  const name = `Dr. Rivera ${unique()}`;
  await page.goto("/admin/doctors/new");
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Specialty").fill("Otolaryngology");
  await page.getByLabel("Website").fill("not a url");
  await page.getByRole("button", { name: "Create Doctor" }).click();
  await expect(page.getByText("Must be a valid URL")).toBeVisible();
  await page.getByLabel("Website").fill("https://rivera.example");
  await page.getByRole("button", { name: "Create Doctor" }).click();
  await expectToast(page, "Doctor Created");

  await page.goto(`/admin/doctors?search=${encodeURIComponent(name)}`);
  await page.getByRole("row").filter({ hasText: name }).getByRole("link", { name: "Edit" }).click();
  await page.getByLabel("Specialty").fill("Head and neck surgery");
  await page.getByRole("button", { name: "Save Doctor" }).click();
  await expectToast(page, "Doctor Updated");
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9\s]/g, "")
    .trim()
    .replace(/\s+/g, "-");
  await page.goto(`/doctors/${slug}`);
  await expect(page.getByText("Head and neck surgery")).toBeVisible();

  await page.goto(`/admin/doctors?search=${encodeURIComponent(name)}`);
  await page.getByRole("row").filter({ hasText: name }).getByRole("link", { name: "Delete" }).click();
  await confirmStep(page).getByRole("button", { name: "Delete" }).click();
  await expectToast(page, "Doctor Deleted");
  await expect(page.getByText("No doctors found")).toBeVisible();
});

test("categories: a blank name says 'Category name is required'; create a sub-category, delete it after confirming", async ({ page }) => {
  await asAdmin(page);
  await page.goto("/admin/categories?tab=sub");
  await page.getByRole("link", { name: "New Sub-category" }).click();
  await page.getByRole("button", { name: "Create Sub-category" }).click();
  await expect(page.getByText("Validation Error").first()).toBeVisible();
  await expect(page.getByText("Category name is required").first()).toBeVisible();

  const name = `Sinus Surgery ${unique()}`;
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Main category").selectOption({ index: 1 });
  await page.getByLabel("Yearly price (USD)").fill("179");
  await page.getByRole("button", { name: "Create Sub-category" }).click();
  await expectToast(page, "Category Created");
  await expect(page.getByRole("link", { name: /^Sub \(\d+\)$/ })).toHaveAttribute("aria-current", "page");

  await page.goto(`/admin/categories?tab=sub&search=${encodeURIComponent(name)}`);
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row.getByText("$179.00")).toBeVisible();
  await row.getByRole("link", { name: "Delete" }).click();
  await expect(confirmStep(page).getByText("No animation is associated with it.")).toBeVisible();
  await confirmStep(page).getByRole("button", { name: "Delete" }).click();
  await expectToast(page, "Category Deleted");
});

test("pages: a new page becomes public at its address", async ({ page, browser, javaScriptEnabled }) => {
  await asAdmin(page);
  const title = `Accessibility Statement ${unique()}`;
  await page.goto("/admin/pages/new");
  await page.getByLabel("Title").fill(title);
  if (javaScriptEnabled) await expect(page.getByLabel("Slug")).toHaveValue(title.toLowerCase().replace(/\s+/g, "-"));
  await page.getByLabel("Type").selectOption("company");
  await page.getByLabel("Content").fill("<h2>Our commitment</h2><p>Everyone can use Medanim.</p>");
  await page.getByRole("button", { name: "Create Page" }).click();
  await expectToast(page, "Page Created");
  await page.goto(`/admin/pages?search=${encodeURIComponent(title)}`);
  await expect(page.getByRole("row").filter({ hasText: title }).getByText("Published")).toBeVisible();

  const visitor = await (await browser.newContext({ javaScriptEnabled })).newPage();
  await visitor.goto(`/${title.toLowerCase().replace(/\s+/g, "-")}`);
  await expect(visitor.getByRole("heading", { name: title })).toBeVisible();
  await expect(visitor.getByRole("heading", { name: "Our commitment" })).toBeVisible();
});

test("FAQs on /help: add, edit and delete after confirming; visitors see the change", async ({ page, browser, javaScriptEnabled }) => {
  await asAdmin(page);
  const question = `Can clinics embed animations ${unique()}?`;
  await page.goto("/help");
  await page.getByRole("link", { name: "Add FAQ" }).click();
  await page.getByLabel("Question").fill(question);
  await page.getByLabel("Answer").fill("Yes, with a licence.");
  await page.getByRole("button", { name: "Add FAQ" }).click();
  await expectToast(page, "FAQ Created");

  const visitor = await (await browser.newContext({ javaScriptEnabled })).newPage();
  await visitor.goto(`/help?q=${encodeURIComponent(question)}`);
  await expect(visitor.getByText(question)).toBeVisible();

  await page.goto(`/help?q=${encodeURIComponent(question)}`);
  await page.getByRole("link", { name: `Edit “${question}”` }).click();
  await page.getByLabel("Active (shown to visitors)").uncheck();
  await page.getByRole("button", { name: "Save FAQ" }).click();
  await expectToast(page, "FAQ Updated");
  await visitor.goto(`/help?q=${encodeURIComponent(question)}`);
  await expect(visitor.getByText("No FAQs found matching your search")).toBeVisible();

  await page.goto(`/help?q=${encodeURIComponent(question)}`);
  await expect(page.getByText("Inactive", { exact: true })).toBeVisible();
  await page.getByRole("link", { name: `Delete “${question}”` }).click();
  await confirmStep(page).getByRole("button", { name: "Delete" }).click();
  await expectToast(page, "FAQ Deleted");
});

test("settings: a new annual price shows on /premium; the old one comes back", async ({ page, browser, javaScriptEnabled }) => {
  await asAdmin(page);
  await withSettingsLock(async () => {
    await page.goto("/admin/settings");
    await expect(page.getByLabel("Platform Name")).toHaveValue("Medanim");
    await page.getByLabel("Annual Price (USD)").fill("149.60");
    if (javaScriptEnabled) await expect(page.getByTestId("price-preview")).toHaveText("Premium: $150 per year");
    await page.getByRole("button", { name: "Save All Settings" }).click();
    await expectToast(page, "Settings Saved");
    await expect(page.getByTestId("price-preview")).toHaveText("Premium: $150 per year");

    const visitor = await (await browser.newContext({ javaScriptEnabled })).newPage();
    await visitor.goto("/premium");
    await expect(visitor.getByRole("main").getByText("$149.60/year")).toBeVisible();

    await page.getByLabel("Annual Price (USD)").fill("99");
    // The first save's toast may still show: wait for this save's answer, not for the toast.
    const saved = page.waitForResponse((response) => response.request().method() === "POST" && new URL(response.url()).pathname.startsWith("/admin/settings"));
    await page.getByRole("button", { name: "Save All Settings" }).click();
    await saved;
    await expectToast(page, "Settings Saved");
    await visitor.goto("/premium");
    await expect(visitor.getByRole("main").getByText("$99/year")).toBeVisible();
  });
});
