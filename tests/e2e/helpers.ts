import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { findLink, latestOutboxMail } from "../helpers/mail-parse.ts";

export const DATA_DIR = process.env.E2E_DATA_DIR ?? "test-results/e2e-data";
export const ADMIN = { email: "admin@medanim.local", password: "admin12345" };
export const MEMBER = { email: "member@medanim.local", password: "member12345" };

/** The two widths every flow is checked at: a desktop's 1280 px and a phone's 390 px. */
export const WIDTHS = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const;

/** Declares `body`'s tests once per width, each group named after it and its viewport set. */
export function atEachWidth(body: (size: (typeof WIDTHS)[number]) => void) {
  for (const size of WIDTHS) {
    test.describe(`at ${size.name} width`, () => {
      test.use({ viewport: { width: size.width, height: size.height } });
      body(size);
    });
  }
}

/** "November 25, 2027": a year from today, as the checkout screen and the confirmation print it. */
export function aYearFromToday() {
  const date = new Date();
  date.setUTCFullYear(date.getUTCFullYear() + 1);
  return new Intl.DateTimeFormat("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" }).format(date);
}

export function uniqueUser() {
  const n = crypto.randomBytes(4).toString("hex");
  return {
    firstName: "Grace",
    lastName: "Hopper",
    username: `grace_${n}`,
    email: `grace-${n}@example.com`,
    password: "s3cret-pass",
  };
}

export async function signUp(page: Page, user = uniqueUser()) {
  await page.goto("/auth?mode=signup");
  await page.getByLabel("First name").fill(user.firstName);
  await page.getByLabel("Last name").fill(user.lastName);
  await page.getByLabel("Username").fill(user.username);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByLabel("Confirm password").fill(user.password);
  await page.getByLabel(/I agree to the/).check();
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  return user;
}

export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/auth");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

export async function signOut(page: Page) {
  await page.getByLabel("Profile menu").click();
  await page.getByRole("button", { name: "Sign Out" }).click();
  await expectToast(page, "Logged Out", "You have been successfully logged out.");
}

/** The toast in the region labelled 'Notification' (at most one is visible). */
export async function expectToast(page: Page, title: string, description?: string) {
  const region = page.getByRole("region", { name: "Notification" });
  await expect(region.getByText(title, { exact: true })).toBeVisible();
  if (description) await expect(region.getByText(description, { exact: true })).toBeVisible();
}

/** The newest link in the e-mail outbox for this address whose path starts with prefix. */
export async function linkFromOutbox(to: string, prefix: string) {
  let link: string | null = null;
  await expect
    .poll(() => {
      const mail = latestOutboxMail(DATA_DIR, to);
      link = mail ? findLink(mail.text, prefix) : null;
      return link;
    })
    .not.toBeNull();
  return link!;
}

/**
 * Runs `fn` while no other test (in either project: they share one server) holds the settings:
 * the admin settings test changes the premium price that the premium page's test reads.
 */
export async function withSettingsLock<T>(fn: () => Promise<T>): Promise<T> {
  const lock = path.join(DATA_DIR, "settings.lock");
  fs.mkdirSync(DATA_DIR, { recursive: true });
  for (let tries = 0; ; tries++) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      if (tries > 300) throw new Error("settings lock not released");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}
