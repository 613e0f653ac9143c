import { expect, test } from "@playwright/test";

// The API reference is drawn by Swagger UI from /api/openapi.json, under the site's strict CSP
// (the no-JavaScript reading of the same page is in tests/e2e/api-docs.spec.ts).

test("/api/docs renders the reference under a CSP without unsafe-eval, with no violation", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  const response = await page.goto("/api/docs");
  const csp = response!.headers()["content-security-policy"]!;
  expect(csp).toContain("script-src 'self' 'nonce-");
  expect(csp).not.toContain("unsafe-eval");
  // The operations of the document, grouped by tag, with the auth call expandable.
  await expect(page.getByRole("heading", { name: /Medanim API/ }).last()).toBeVisible();
  const login = page.locator(".opblock-summary", { hasText: "/api/auth/login" });
  await expect(login).toBeVisible();
  await login.click();
  await expect(page.getByText("Sign in: access and refresh tokens with the user")).toBeVisible();
  await expect(page.locator(".opblock-body").getByText("401", { exact: true }).first()).toBeVisible();
  await expect(page.locator('.opblock-tag[data-tag="Admin"]')).toBeVisible();
  expect(violations).toEqual([]);
});
