import { expect, test } from "@playwright/test";

// The reference's own page, as any browser first reads it: how to start, and the document.
// (What Swagger UI draws with JavaScript is in js-only/api-docs.spec.ts.)

test("/api/docs says how to start and links the OpenAPI document", async ({ page, request }) => {
  await page.goto("/api/docs");
  await expect(page.getByRole("heading", { name: "Medanim API reference" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Getting started" })).toBeVisible();
  await expect(page.getByText("POST /api/auth/login").first()).toBeVisible();
  const link = page.getByRole("link", { name: "/api/openapi.json" }).first();
  await expect(link).toHaveAttribute("href", "/api/openapi.json");
  const document = await (await request.get("/api/openapi.json")).json();
  expect(document.openapi).toBe("3.1.0");
  expect(Object.keys(document.paths)).toContain("/api/auth/login");
});
