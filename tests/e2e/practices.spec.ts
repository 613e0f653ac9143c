import fs from "node:fs/promises";
import { type Download, expect, test } from "@playwright/test";
import { pdfText } from "../helpers/pdf-text.ts";
import { expectToast, linkFromOutbox, signOut, signUp, uniqueUser } from "./helpers.ts";

// A practice as its marketing manager runs it (decision 030), in both projects: found it, invite a
// colleague (the invitation taken from the outbox), buy a category licence for the practice in
// test mode, and the colleague downloads its files and a certificate that names the practice.

test("a practice buys a category license its colleague downloads, with a certificate naming the practice", async ({ page }) => {
  const practiceName = `Klinik ${uniqueUser().username}`;
  const colleague = uniqueUser();

  await test.step("the manager founds the practice", async () => {
    await signUp(page);
    await page.goto("/dashboard");
    await page.getByTestId("profile-menu").locator("summary").click();
    await page.getByRole("link", { name: "Practice", exact: true }).click();
    await expect(page).toHaveURL(/\/practice$/);
    const form = page.getByRole("region", { name: "Create a practice" });
    await form.getByLabel("Legal name").fill(practiceName);
    await form.getByLabel("Address").fill("Seestrasse 5\n80802 München");
    await form.getByLabel("Country").fill("DE");
    await form.getByLabel("VAT / Tax ID (optional)").fill("DE 123 456 789");
    await form.getByRole("button", { name: "Create practice" }).click();
    await expectToast(page, "Practice created");
    await expect(page.getByRole("heading", { level: 1, name: practiceName })).toBeVisible();
  });

  await test.step("invites a colleague as viewer", async () => {
    const members = page.getByRole("region", { name: "Members" });
    await members.getByLabel("Email").fill(colleague.email);
    await members.getByLabel("Role", { exact: true }).selectOption("viewer");
    await members.getByRole("button", { name: "Send invitation" }).click();
    await expectToast(page, "Invitation sent");
    await expect(page.getByTestId("practice-invitation")).toContainText(colleague.email);
  });

  await test.step("buys a category license for the practice", async () => {
    await page.goto("/purchase/category/rhinoplasty");
    await page
      .getByTestId("buyer-choice")
      .getByRole("link", { name: `${practiceName} (3 seats)` })
      .click();
    await expect(page).toHaveURL(/\/purchase\/category\/rhinoplasty\?for=practice$/);
    await expect(page.getByText("Used by everyone in the practice: 3 seats (included in the price)")).toBeVisible();
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await page.getByRole("button", { name: /^Pay \$\d+/ }).click();
    await expect(page.getByRole("main").getByRole("heading", { level: 1, name: "Your license is active" })).toBeVisible();
    await expect(page.getByRole("main").getByText(`Category license: Rhinoplasty, for ${practiceName} (3 seats)`, { exact: true })).toBeVisible();
    await page.goto("/billing");
    await expect(page.getByRole("region", { name: `Licenses of ${practiceName}` })).toContainText("Rhinoplasty");
    await signOut(page);
  });

  await test.step("the colleague accepts from the e-mail, downloads and gets the certificate", async () => {
    const link = await linkFromOutbox(colleague.email, "/practice/invitations/");
    await page.goto(link);
    await expect(page.getByRole("heading", { level: 1, name: `Join ${practiceName}` })).toBeVisible();
    await expect(page.getByRole("link", { name: "Create an account" })).toBeVisible();
    // Without an account yet: create one, then come back to the invitation.
    await signUp(page, colleague);
    await page.goto(new URL(link).pathname);
    await page.getByRole("button", { name: "Accept invitation" }).click();
    await expectToast(page, `Welcome to ${practiceName}`);
    await expect(page.getByTestId("practice-role")).toContainText("You are a viewer of this practice");

    await page.goto("/my-animations");
    const first = page.getByRole("main").getByRole("listitem").first();
    await first.getByRole("heading").click();
    await expect(page).toHaveURL(/\/watch\//);
    const downloads = page.getByRole("list", { name: "Downloads" });
    const [file] = await Promise.all([page.waitForEvent("download"), downloads.getByRole("link").first().click()]);
    expect((await fs.stat((await file.path())!)).size).toBeGreaterThan(0);

    await page.goto("/my-animations");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page
        .getByRole("main")
        .getByRole("listitem")
        .first()
        .getByRole("link", { name: /^Certificate for / })
        .click(),
    ]);
    const text = pdfText(await fs.readFile((await (download as Download).path())!), " ");
    expect(text).toContain(practiceName);
    expect(text).toContain("3 people of the practice");
    // A viewer sees no billing of the practice and adds no site.
    await page.goto("/billing");
    await expect(page.getByRole("region", { name: `Licenses of ${practiceName}` })).toHaveCount(0);
    await page.goto("/my-animations");
    await expect(page.getByText("The practice's owners and managers add and remove its sites.").first()).toBeVisible();
  });
});
