import { expect, test } from "@playwright/test";
import { ADMIN, expectToast, signIn } from "./helpers.ts";

// Captions and the medical review date, in both projects: an admin attaches a WebVTT track and
// records a review; a visitor's player offers the track and the page says who reviewed it.

const SLUG = "open_rhinoplasty_reshaping_the_nasal_framework";

test("an admin adds a caption track and a review date; the public page shows both", async ({ page, browser, javaScriptEnabled }) => {
  // Each project its own language: both share one server and one animation.
  const language = javaScriptEnabled ? "de" : "fr";
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto("/admin/animations?search=open%20rhinoplasty");
  await page.getByRole("row").filter({ hasText: "Open Rhinoplasty" }).getByRole("link", { name: "Edit" }).click();
  await page.getByRole("link", { name: "Captions & medical review" }).click();

  await page.getByLabel("Language").selectOption(language);
  await page
    .getByLabel("Caption file (.vtt)")
    .setInputFiles({ name: "captions.srt", mimeType: "text/plain", buffer: Buffer.from("1\n00:00:00,000 --> 00:00:04,000\nHi\n") });
  await page.getByRole("button", { name: "Upload captions" }).click();
  await expect(page.getByText("Caption file must be a .vtt file")).toBeVisible();
  await page.getByLabel("Language").selectOption(language);
  await page.getByLabel("Caption file (.vtt)").setInputFiles({ name: "bad.vtt", mimeType: "text/vtt", buffer: Buffer.from("not a caption file") });
  await page.getByRole("button", { name: "Upload captions" }).click();
  await expect(page.getByText(/must start with WEBVTT/)).toBeVisible();

  await page.getByLabel("Language").selectOption(language);
  const vtt = "WEBVTT\n\n00:00.000 --> 00:04.000\nThe surgeon lifts the skin of the nose.\n\n00:04.000 --> 00:08.000\nThe framework is reshaped.\n";
  await page.getByLabel("Caption file (.vtt)").setInputFiles({ name: `captions-${language}.vtt`, mimeType: "text/vtt", buffer: Buffer.from(vtt) });
  await page.getByRole("button", { name: "Upload captions" }).click();
  await expect(page.getByRole("region", { name: "Notification" }).getByText(/^Caption (uploaded|replaced)$/)).toBeVisible();
  // The refusals before it are not left on screen beside the form.
  await expect(page.getByText("Caption file must be a .vtt file")).toHaveCount(0);
  await expect(page.getByText(/must start with WEBVTT/)).toHaveCount(0);

  await page.getByLabel("Reviewed on").fill("2026-11-02");
  await page.getByRole("button", { name: "Save review" }).click();
  await expectToast(page, "Medical review saved");

  const visitor = await (await browser.newContext({ javaScriptEnabled })).newPage();
  await visitor.goto(`/animations/${SLUG}`);
  await expect(visitor.getByText(/^Medically reviewed by Dr\. .+ \(.+\) on November 2, 2026 · next review November 2, 2027$/)).toBeVisible();
  await expect(visitor.locator(`video track[srclang="${language}"]`)).toHaveCount(1);
});
