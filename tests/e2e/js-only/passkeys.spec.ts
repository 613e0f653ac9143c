import { expect, type Page, test } from "@playwright/test";
import { expectToast, signOut, signUp } from "../helpers.ts";

// A passkey registered on /profile and used to sign in, with Chromium's virtual authenticator
// (the DevTools protocol's WebAuthn domain) standing in for a phone or a laptop's fingerprint
// reader: a platform authenticator that keeps discoverable credentials and verifies its user.

async function withVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { credentials: async () => (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials };
}

test("a member registers a passkey on /profile, signs out and signs in with it", async ({ page }) => {
  const authenticator = await withVirtualAuthenticator(page);
  await signUp(page);

  await page.goto("/profile");
  const section = page.getByRole("region", { name: "Passkeys" });
  await expect(section.getByText("You have no passkeys yet.")).toBeVisible();
  // The add form exists only once the page runs JavaScript.
  await section.getByLabel("Passkey name (optional)").fill("Test laptop");
  await section.getByRole("button", { name: "Add a passkey" }).click();
  await expectToast(page, "Passkey added", "You can now sign in with “Test laptop”.");
  await expect(section.getByText("Test laptop", { exact: true })).toBeVisible();
  await expect(section.getByText(/Not used yet/)).toBeVisible();
  const [credential] = await authenticator.credentials();
  expect(credential?.isResidentCredential).toBe(true);

  await signOut(page);
  await page.goto("/auth");
  await page.getByRole("button", { name: "Continue with a passkey" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expectToast(page, "Welcome back!", "You have been successfully logged in.");

  await page.goto("/profile");
  await expect(section.getByText(/Last used/)).toBeVisible();
  expect((await authenticator.credentials())[0]?.signCount).toBeGreaterThan(0);
});
