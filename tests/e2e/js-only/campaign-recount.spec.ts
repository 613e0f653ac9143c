import { expect, test } from "@playwright/test";
import { ADMIN, signIn } from "../helpers.ts";

// With JavaScript, once the recipients are counted, changing the audience counts it again in the
// background: the number and the Send Campaign button follow without another click.

test("the campaign form counts the audience again as the admin changes it", async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto("/admin/email-manager/campaigns/new");
  await page.getByLabel("Holds the category licence").selectOption({ label: "Cardiology › Interventional Cardiology" });
  await page.getByLabel("Signed up until").fill(new Date(Date.now() - 365 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10));
  await page.getByLabel("Subject").fill("Recount");
  await page.getByLabel("HTML content").fill("<p>Hello</p>");
  await page.getByRole("button", { name: "Count Recipients" }).click();
  const recipients = page.getByRole("region", { name: "Recipients" });
  await expect(recipients.getByRole("status")).toContainText("1 recipient ·");
  await expect(recipients.getByRole("button", { name: "Send Campaign to 1 recipient" })).toBeVisible();

  // Those whose licence ended instead: nobody among the seeded accounts, and nothing to send.
  await page.getByLabel("Licence state").selectOption("expired");
  await expect(recipients.getByRole("status")).toContainText("0 recipients · All users · holding the Interventional Cardiology category licence (expired)");
  await expect(recipients.getByRole("button", { name: /^Send Campaign/ })).toHaveCount(0);
  await expect(recipients.getByText("Nobody to send to")).toBeVisible();
  // And back: the number and the button return.
  await page.getByLabel("Licence state").selectOption("active");
  await expect(recipients.getByRole("status")).toContainText("1 recipient · All users · holding the Interventional Cardiology category licence (active)");
  await expect(recipients.getByRole("button", { name: "Send Campaign to 1 recipient" })).toBeVisible();
});
