import { expect, test } from "@playwright/test";
import { expectToast, MEMBER, signIn } from "../helpers.ts";

// Behaviour that exists only with JavaScript: this folder runs in the js project alone.

test("pages hydrate under the enforced CSP without violations", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.goto("/auth");
  // The client entry ran (its inline and module scripts were allowed by the nonce) and hydrated.
  await page.waitForFunction(() => Boolean((window as unknown as { __reactRouterDataRouter?: unknown }).__reactRouterDataRouter));
  await page.getByRole("main").getByRole("link", { name: "Sign up" }).click();
  await expect(page.getByRole("button", { name: "Create Account" })).toBeVisible();
  await page.goto("/");
  expect(violations).toEqual([]);
});

test("F8 moves focus to the notification region, and the toast leaves after 5 seconds", async ({ page }) => {
  // A member: the admin's sign-in is shared between tests (helpers.ts) and shows no toast.
  await signIn(page, MEMBER.email, MEMBER.password);
  await expectToast(page, "Welcome back!");
  await page.keyboard.press("F8");
  await expect(page.getByRole("region", { name: "Notification" })).toBeFocused();
  await expect(page.getByRole("region", { name: "Notification" }).getByText("Welcome back!")).toBeHidden({ timeout: 8000 });
});

test("a page kept by the page cache hydrates under its own hashed CSP", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  // The first visit renders and keeps /contact (a page that hydrates, for its form as it is
  // typed in; most public pages do not, decision 025); the second is answered from the kept
  // bytes, whose policy names the hashes of their inline scripts instead of a nonce (decision 021).
  await page.request.get("/contact");
  const kept = await page.goto("/contact");
  const scripts = /script-src [^;]*/.exec(kept!.headers()["content-security-policy"] ?? "")?.[0] ?? "";
  expect(scripts).toMatch(/^script-src 'self' 'sha256-/);
  expect(scripts).not.toMatch(/nonce-|unsafe-inline|strict-dynamic/);
  await page.waitForFunction(() => Boolean((window as unknown as { __reactRouterDataRouter?: unknown }).__reactRouterDataRouter));
  // Hydrated: a link is followed by the browser's router, not a document load (the window survives).
  await page.evaluate(() => ((window as unknown as { keptPage?: boolean }).keptPage = true));
  await page.getByRole("banner").getByRole("link", { name: "Sign in" }).click();
  await expect(page.getByRole("button", { name: "Sign In" })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { keptPage?: boolean }).keptPage)).toBe(true);
  expect(violations).toEqual([]);
});
