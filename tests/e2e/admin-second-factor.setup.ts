import fs from "node:fs";
import path from "node:path";
import { expect, test as setup } from "@playwright/test";
import { generate } from "otplib";
import { ADMIN, DATA_DIR } from "./helpers.ts";

// Before every project: the demo admin sets up the authenticator app through the first-sign-in
// walk-through, as a real admin does (the seed gives admins no factor). The secret is kept for
// the helpers' sign-ins (helpers.ts adminCode), whose first claimed window follows this one.
setup("the demo admin sets up two-step sign-in", async ({ page }) => {
  await page.goto("/auth");
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/profile\/two-step\?redirectTo=%2Fdashboard$/);
  await page.getByRole("button", { name: "Set up authenticator app" }).click();
  const secret = (await page.getByLabel("Secret key").textContent())!.trim();
  const step = Math.floor(Date.now() / 1000 / 30);
  await page.getByLabel("Code from the app").fill(await generate({ secret, epoch: step * 30 }));
  await page.getByRole("button", { name: "Turn on two-step sign-in" }).click();
  await expect(page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem")).toHaveCount(10);
  fs.mkdirSync(DATA_DIR, { recursive: true });
  fs.writeFileSync(path.join(DATA_DIR, "admin-totp-secret.txt"), secret);
  fs.writeFileSync(path.join(DATA_DIR, "admin-totp-last-step.txt"), String(step));
});
