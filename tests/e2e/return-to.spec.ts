import { expect, test } from "@playwright/test";
import { expectToast, linkFromOutbox, signOut, signUp, uniqueUser } from "./helpers.ts";

// Never lose the buyer's place: a sign-in or sign-up started from a licence page's buy button goes
// on to that very purchase, and so does the e-mail verification link of a sign-up made there.

test("signing in from License This Animation lands on that animation's checkout", async ({ page, request }) => {
  const { animations } = await (await request.get("/api/animations?limit=1&light=true")).json();
  const animation = animations[0] as { id: string; title: string };
  const user = await signUp(page);
  await signOut(page);

  await page.goto(`/individual-license?animation=${animation.id}`);
  await page.getByRole("main").getByRole("link", { name: "License This Animation" }).click();
  await expect(page).toHaveURL(new RegExp(`/auth\\?redirectTo=%2Fpurchase%2Findividual%2F${animation.id}$`));
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(new RegExp(`/purchase/individual/${animation.id}$`));
  await expect(page.getByRole("main").getByRole("heading", { level: 2 })).toHaveText(`Individual license: ${animation.title}`);
});

test("signing up from Get Category License lands on that category's checkout, and so does the verification link", async ({ page }) => {
  const user = uniqueUser();
  await page.goto("/category-license?category=rhinoplasty");
  await page.getByRole("main").getByRole("link", { name: "Get Category License" }).click();
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fpurchase%2Fcategory%2Frhinoplasty$/);
  await page.getByRole("main").getByRole("link", { name: "Sign up" }).click();
  await page.getByLabel("First name").fill(user.firstName);
  await page.getByLabel("Last name").fill(user.lastName);
  await page.getByLabel("Username").fill(user.username);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByLabel("Confirm password").fill(user.password);
  await page.getByLabel(/I agree to the/).check();
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/purchase\/category\/rhinoplasty$/);
  await expect(page.getByRole("main").getByRole("heading", { level: 2 })).toHaveText("Category license: Rhinoplasty");

  // Later, from the mail: verified, and back at the same checkout.
  await page.goto("/");
  await page.goto(await linkFromOutbox(user.email, "/verify-email"));
  await expect(page).toHaveURL(/\/purchase\/category\/rhinoplasty$/);
  await expectToast(page, "Email Verified");
  await expect(page.getByRole("main").getByRole("heading", { level: 2 })).toHaveText("Category license: Rhinoplasty");
});
