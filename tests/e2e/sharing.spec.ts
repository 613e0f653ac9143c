import { expect, type Page, test } from "@playwright/test";

// Share on the animation page, in both projects: without JavaScript a toggle with the link to copy
// and links to e-mail, LinkedIn, X and WhatsApp; with it the same, plus a Copy button where the
// device has no share sheet (Debian's Chromium has none: tests/e2e/js-only/sharing.spec.ts gives
// the page one).

const SLUG = "open_rhinoplasty_reshaping_the_nasal_framework";

/** The animation's subcategory path, read from its breadcrumb: the page also answers there. */
async function categoryPath(page: Page) {
  await page.goto(`/animations/${SLUG}`);
  const crumbs = page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link");
  return (await crumbs.last().getAttribute("href"))!;
}

test("a visitor shares the animation's one address, from whichever path they came", async ({ page, baseURL, javaScriptEnabled }) => {
  if (javaScriptEnabled) await page.addInitScript(() => delete (Navigator.prototype as Partial<Navigator>).share);
  const sub = await categoryPath(page);
  expect(sub).toMatch(/^\/category\/[^/]+\/[^/]+$/);
  await page.goto(`${sub}/${SLUG}?utm_source=newsletter`);
  const title = await page.getByRole("heading", { level: 1 }).textContent();
  const address = `${baseURL}/animations/${SLUG}`;

  const share = page.getByTestId("share");
  const field = share.getByLabel("Link to this animation");
  await expect(field).toBeHidden();
  await share.getByText("Share", { exact: true }).click();
  await expect(field).toBeVisible();
  await expect(field).toHaveValue(address);

  const href = async (name: string) => new URL((await share.getByRole("link", { name, exact: true }).getAttribute("href"))!);
  const mail = await href("E-mail");
  expect(mail.protocol).toBe("mailto:");
  expect(mail.searchParams.get("subject")).toBe(title);
  expect(mail.searchParams.get("body")).toContain(address);
  expect(mail.href).not.toContain("+");
  const linkedIn = await href("LinkedIn");
  expect(linkedIn.origin + linkedIn.pathname).toBe("https://www.linkedin.com/sharing/share-offsite/");
  expect(linkedIn.searchParams.get("url")).toBe(address);
  const x = await href("X");
  expect(x.origin + x.pathname).toBe("https://x.com/intent/post");
  expect(x.searchParams.get("url")).toBe(address);
  expect(x.searchParams.get("text")).toBe(title);
  const whatsApp = await href("WhatsApp");
  expect(whatsApp.origin + whatsApp.pathname).toBe("https://wa.me/");
  expect(whatsApp.searchParams.get("text")).toBe(`${title} ${address}`);
  // The networks open beside the page, which stays where it is.
  await expect(share.getByRole("link", { name: "LinkedIn" })).toHaveAttribute("target", "_blank");

  if (javaScriptEnabled) {
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await share.getByRole("button", { name: "Copy link" }).click();
    await expect(share.getByRole("status")).toHaveText("Link copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address);
  } else {
    // Without JavaScript nothing can write the clipboard: the link is there to select and copy.
    await expect(share.getByRole("button", { name: "Copy link" })).toHaveCount(0);
  }
});
