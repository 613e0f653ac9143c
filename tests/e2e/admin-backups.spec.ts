import { expect, test } from "@playwright/test";
import { ADMIN, expectFieldError, expectToast, signIn, withSettingsLock } from "./helpers.ts";

// Backups that run themselves (decision 035), in both projects: the owner sets how many archives
// the daily job keeps on /admin/settings (a bad number refused beside the field), and the
// dashboard's Backups panel says what there is and when the job runs.

test("the owner sets how many backups are kept, and the dashboard tells what is backed up and when", async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await withSettingsLock(async () => {
    await page.goto("/admin/settings");
    const keep = page.getByLabel("Backups kept");
    const kept = await keep.inputValue();
    expect(kept).toMatch(/^\d+$/);
    await keep.fill("0");
    await page.getByRole("button", { name: "Save All Settings" }).click();
    await expectFieldError(page.getByLabel("Backups kept"), "Backups kept must be a whole number from 1 to 365");
    await page.getByLabel("Backups kept").fill("5");
    await page.getByRole("button", { name: "Save All Settings" }).click();
    await expectToast(page, "Settings Saved");
    await page.goto("/admin/settings");
    await expect(page.getByLabel("Backups kept")).toHaveValue("5");
    await page.getByLabel("Backups kept").fill(kept);
    const saved = page.waitForResponse((response) => response.request().method() === "POST" && new URL(response.url()).pathname.startsWith("/admin/settings"));
    await page.getByRole("button", { name: "Save All Settings" }).click();
    await saved;
  });

  await page.goto("/admin");
  const panel = page.getByRole("region", { name: "Backups" });
  await expect(panel.getByText(/^Last backup: .+ UTC|^No backup yet/).first()).toBeVisible();
  // The server's default schedule (BACKUP_SCHEDULE unset), in words.
  await expect(panel.getByText("Runs daily at 03:00 UTC")).toBeVisible();
  await expect(panel.getByRole("link", { name: "settings" })).toHaveAttribute("href", "/admin/settings");
});
