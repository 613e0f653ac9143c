import fs from "node:fs/promises";
import { type Download, expect, test } from "@playwright/test";
import { pdfText } from "../helpers/pdf-text.ts";
import { adminApiToken, atEachWidth, expectToast, signUp } from "./helpers.ts";

// A practice's paperwork: the seller's details as an admin sets them, the practice's invoice
// details on /billing, a purchase in test mode, and the invoice it brings (page and PDF) naming
// both parties with their tax ids. Both projects, at a desktop and a phone width.

const SELLER = {
  seller_legal_name: "Medanim Demo Ltd",
  seller_address: "1 Harbour Road\nDublin D02",
  seller_tax_id: "IE1234567T",
  seller_country: "IE",
  tax_rates: "IE=23, DE=19",
};

test.beforeAll(async ({ request }) => {
  const token = await adminApiToken(request);
  for (const [key, value] of Object.entries(SELLER)) {
    const saved = await request.put(`/api/settings/${key}`, { data: { value }, headers: { Authorization: `Bearer ${token}` } });
    expect(saved.status(), key).toBe(200);
  }
});

atEachWidth(() => {
  test("the invoice of a purchase names the seller and the practice with their VAT numbers, on the page and in the PDF", async ({ page }) => {
    await signUp(page);
    await page.goto("/billing");
    const details = page.getByRole("region", { name: "Invoice details" });
    await details.getByLabel("Legal name").fill("Praxis am Markt GmbH");
    await details.getByLabel("Address").fill("Marktplatz 3\n50667 Köln");
    await details.getByLabel("Country").fill("DE");
    await details.getByLabel("VAT / Tax ID (optional)").fill("DE 999 888 777");
    await details.getByRole("button", { name: "Save invoice details" }).click();
    await expectToast(page, "Invoice details saved");

    await page.goto("/premium");
    await page.getByRole("button", { name: "Get Premium Access" }).click();
    await page.getByRole("button", { name: /^Pay \$\d+/ }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Welcome to Premium!" })).toBeVisible();

    await page.goto("/billing");
    await page.getByRole("link", { name: /^Invoice INV-\d{6}$/ }).click();
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1, name: "Invoice" })).toBeVisible();
    await expect(main.getByText("VAT / Tax ID: IE1234567T")).toBeVisible();
    await expect(main.getByText("VAT / Tax ID: DE999888777")).toBeVisible();
    // A German practice buying from an Irish seller: reverse charge, no tax.
    await expect(main.getByText(/^Reverse charge: VAT to be accounted for by the recipient/)).toBeVisible();

    const [download] = await Promise.all([page.waitForEvent("download"), main.getByRole("link", { name: "Download PDF" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^medanim-inv-\d{6}\.pdf$/);
    const text = pdfText(await fs.readFile((await (download as Download).path())!));
    for (const words of ["Medanim Demo Ltd", "VAT / Tax ID: IE1234567T", "Praxis am Markt GmbH", "VAT / Tax ID: DE999888777", "Tax (0%)"])
      expect(text).toContain(words);
  });

  test("a VAT number without its country prefix is refused beside the field, and nothing is saved", async ({ page }) => {
    await signUp(page);
    await page.goto("/billing");
    const details = page.getByRole("region", { name: "Invoice details" });
    await details.getByLabel("Legal name").fill("Praxis am Markt GmbH");
    await details.getByLabel("Address").fill("Marktplatz 3, Köln");
    await details.getByLabel("Country").fill("DE");
    const taxId = details.getByLabel("VAT / Tax ID (optional)");
    await taxId.fill("999888777");
    await details.getByRole("button", { name: "Save invoice details" }).click();
    await expect(
      page
        .getByRole("region", { name: "Invoice details" })
        .getByText("Enter the VAT number with its country prefix DE and no other letters, such as DE123456789"),
    ).toBeVisible();
    await page.goto("/billing");
    await expect(page.getByRole("region", { name: "Invoice details" }).getByLabel("Legal name")).toHaveValue("");
  });
});
