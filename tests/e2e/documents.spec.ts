import fs from "node:fs/promises";
import { expect, test, type Download, type Page } from "@playwright/test";
import { MEMBER, signIn } from "./helpers.ts";

// Receipts and licence certificates as PDF files, and the public verification page.
// The demo member (prisma/seed.ts) holds two individual licences and a category licence.

async function downloadedBytes(page: Page, click: () => Promise<void>) {
  const [download] = await Promise.all([page.waitForEvent("download"), click()]);
  return { download, bytes: await fs.readFile((await (download as Download).path())!) };
}

test("the demo member downloads a receipt and a licence certificate, and the certificate's link verifies it", async ({ page, browser }) => {
  await signIn(page, MEMBER.email, MEMBER.password);

  await test.step("receipt page and receipt PDF", async () => {
    await page.goto("/billing");
    const row = page.getByTestId("payment-row").first();
    await row.getByRole("link", { name: "Receipt", exact: true }).click();
    await expect(page).toHaveURL(/\/billing\/receipts\/[0-9a-f-]{36}$/);
    await expect(page.getByRole("heading", { level: 1, name: "Receipt" })).toBeVisible();
    await expect(page.getByText(/^Receipt number MED-[0-9A-F]{12}$/)).toBeVisible();
    await expect(page.getByRole("main").getByText(MEMBER.email)).toBeVisible();

    const { download, bytes } = await downloadedBytes(page, () => page.getByRole("link", { name: "Download PDF" }).click());
    expect(download.suggestedFilename()).toMatch(/^medanim-receipt-[0-9a-f]{8}\.pdf$/);
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");

    await page.goto("/billing");
    const fromList = await downloadedBytes(page, () => page.getByTestId("payment-row").first().getByRole("link", { name: /^PDF/ }).click());
    expect(fromList.bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  });

  const verifyUrl = await test.step("certificate PDF from /billing and from /my-animations", async () => {
    await page.goto("/billing");
    const certificate = page.getByRole("link", { name: /^Certificate for Category license/ });
    await expect(certificate).toBeVisible();
    // Premium is access, not a licence: it has no certificate.
    await expect(page.getByRole("link", { name: /^Certificate for Premium/ })).toHaveCount(0);
    const { download, bytes } = await downloadedBytes(page, () => certificate.click());
    expect(download.suggestedFilename()).toMatch(/^medanim-licence-[0-9a-f]{8}\.pdf$/);
    const text = bytes.toString("latin1");
    expect(text.startsWith("%PDF-")).toBe(true);
    expect(text).toContain("(License Certificate - ");

    await page.goto("/my-animations");
    const fromLibrary = await downloadedBytes(page, () =>
      page
        .getByRole("main")
        .getByRole("listitem")
        .first()
        .getByRole("link", { name: /^Certificate for / })
        .click(),
    );
    expect(fromLibrary.bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");

    // The verification link printed on the certificate is also a link annotation in the file.
    const uri = /\/URI \(([^)]+\/licences\/[0-9a-f-]{36}\/verify)\)/.exec(text)?.[1];
    expect(uri).toBeTruthy();
    return uri!;
  });

  await test.step("the verify page, for anyone (a fresh browser, signed out)", async () => {
    const context = await browser.newContext();
    const stranger = await context.newPage();
    await stranger.goto(verifyUrl);
    await expect(stranger.getByRole("heading", { name: "Valid license" })).toBeVisible();
    await expect(stranger.getByText("Interventional Cardiology (category)")).toBeVisible();
    // Only the licensee's name: no e-mail address anywhere on the page.
    await expect(stranger.getByText(MEMBER.email)).toHaveCount(0);
    expect(await stranger.content()).not.toContain("@medanim.local");
    await context.close();
  });
});

test("a certificate or receipt that is not the viewer's, and an unknown licence, are not found", async ({ page, request }) => {
  const unknown = await request.get("/licences/00000000-0000-4000-8000-000000000000/verify");
  expect(unknown.status()).toBe(404);
  await page.goto("/licences/not-a-licence/verify");
  await expect(page.getByRole("heading", { name: "License not found" })).toBeVisible();

  // Signed out, the PDFs send the visitor to sign in first.
  const certificate = await request.get("/licences/00000000-0000-4000-8000-000000000000/certificate", { maxRedirects: 0 });
  expect(certificate.status()).toBe(302);
  expect(certificate.headers().location).toMatch(/^\/auth\?redirectTo=/);
});
