import { expect, test } from "@playwright/test";
import { expectToast, MEMBER, signIn } from "../helpers.ts";

// Behaviour that exists only with JavaScript: this folder runs in the js project alone.

test("pages hydrate under the enforced CSP without violations", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  // A page that does not hydrate: its own scripts run under the policy.
  await page.goto("/auth?mode=signup");
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByText("First name is required")).toBeVisible();
  await page.goto("/");
  // A page that hydrates (no page a visitor lands on does, decision 025): a member's.
  await signIn(page, MEMBER.email, MEMBER.password);
  await page.goto("/profile");
  // The client entry ran (its inline and module scripts were allowed by the nonce) and hydrated.
  await page.waitForFunction(() => Boolean((window as unknown as { __reactRouterDataRouter?: unknown }).__reactRouterDataRouter));
  expect(violations).toEqual([]);
});

test("F8 moves focus to the notification region, and the toast leaves after 5 seconds", async ({ page }) => {
  // A member: the admin's sign-in is shared between tests (helpers.ts) and shows no toast.
  await signIn(page, MEMBER.email, MEMBER.password);
  await expectToast(page, "Welcome back!");
  // Sign-in posts a document (/auth does not hydrate): the dashboard's toast is in its first
  // paint, before hydration's effects listen for F8. Pressed until they do.
  const region = page.getByRole("region", { name: "Notification" });
  await expect(async () => {
    await page.keyboard.press("F8");
    await expect(region).toBeFocused({ timeout: 500 });
  }).toPass({ timeout: 5000 });
  await expect(page.getByRole("region", { name: "Notification" }).getByText("Welcome back!")).toBeHidden({ timeout: 8000 });
});

test("a page kept by the page cache runs its scripts under its own policy, without a nonce", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  // The first visit renders and keeps /contact; the second is answered from the kept bytes, whose
  // policy names no nonce: 'self' admits the page's module scripts, and hashes any inline script
  // the kept document holds (decision 021).
  await page.request.get("/contact");
  const kept = await page.goto("/contact");
  const scripts = /script-src [^;]*/.exec(kept!.headers()["content-security-policy"] ?? "")?.[0] ?? "";
  expect(scripts).toMatch(/^script-src 'self'/);
  expect(scripts).not.toMatch(/nonce-|unsafe-inline|strict-dynamic/);
  // The page's own script ran: the form is checked before it is sent.
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByText("Name is required")).toBeVisible();
  expect(violations).toEqual([]);
});
