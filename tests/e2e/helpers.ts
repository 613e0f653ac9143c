import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { type APIRequestContext, expect, type Frame, type Locator, type Page, type Request, test } from "@playwright/test";
import { generate } from "otplib";
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

/**
 * Signs in through /auth. The demo admin has an authenticator app (enrolled through the UI by
 * tests/e2e/admin-second-factor.setup.ts), so the second step asks for a code. Every worker
 * reuses one admin session while it is young enough for step-up (a sign-in with a code counts
 * as one for 10 minutes): each window's code works once, and two projects' workers signing in
 * for each test would wait for windows. No test signs the demo admin out.
 */
export async function signIn(page: Page, email: string, password: string) {
  if (email === ADMIN.email && (await reuseAdminSession(page))) return;
  await page.goto("/auth");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
  if (email === ADMIN.email) {
    await expect(page).toHaveURL(/\/auth\/two-step$/);
    await page.getByLabel("Authentication code").fill(await adminCode());
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    const cookies = (await page.context().cookies()).filter((cookie) => cookie.name === "medanim_session");
    fs.writeFileSync(ADMIN_SESSION_FILE(), JSON.stringify({ cookies, at: Date.now() }));
    return;
  }
  await expect(page).toHaveURL(/\/dashboard$/);
}

// The shared admin session, reused while it has at least two minutes of step-up left.
const ADMIN_SESSION_FILE = () => path.join(DATA_DIR, "admin-session.json");
const ADMIN_SESSION_REUSE_MS = 8 * 60 * 1000;

async function reuseAdminSession(page: Page) {
  let saved: { cookies: Parameters<ReturnType<Page["context"]>["addCookies"]>[0]; at: number };
  try {
    saved = JSON.parse(fs.readFileSync(ADMIN_SESSION_FILE(), "utf8"));
  } catch {
    return false;
  }
  if (Date.now() - saved.at > ADMIN_SESSION_REUSE_MS) return false;
  await page.context().addCookies(saved.cookies);
  await page.goto("/dashboard");
  if (new URL(page.url()).pathname === "/dashboard") return true;
  await page.context().clearCookies();
  return false;
}

/** The demo admin's authenticator secret, written by the setup project. */
export function adminTotpSecret() {
  return fs.readFileSync(path.join(DATA_DIR, "admin-totp-secret.txt"), "utf8").trim();
}

/**
 * A code of the demo admin's authenticator the server has not accepted yet. The server takes
 * each 30-s window's code once (and the next window's, for a clock a little ahead), so the
 * workers of both projects claim windows through a file under a lock, waiting for a new window
 * when both usable ones are spent.
 */
export async function adminCode(secret = adminTotpSecret()): Promise<string> {
  return withFileLock("admin-totp.lock", async () => {
    const file = path.join(DATA_DIR, "admin-totp-last-step.txt");
    const last = fs.existsSync(file) ? Number(fs.readFileSync(file, "utf8")) : -1;
    const { code, step } = await codeAfter(secret, last);
    fs.writeFileSync(file, String(step));
    return code;
  });
}

/**
 * An authenticator code of a window after `lastStep` that the server takes now: this window's
 * or the next (it allows a clock one window ahead). Waits for a new window when both are spent.
 */
export async function codeAfter(secret: string, lastStep: number): Promise<{ code: string; step: number }> {
  for (;;) {
    const now = Date.now() / 1000;
    const current = Math.floor(now / 30);
    const step = [current, current + 1].find((candidate) => candidate > lastStep);
    if (step !== undefined) return { code: await generate({ secret, epoch: step * 30 }), step };
    // Waiting for a window is not the test's own time.
    const waitMs = ((current + 1) * 30 - now) * 1000 + 50;
    test.info().setTimeout(test.info().timeout + waitMs);
    await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
}

/** An /api access token of the demo admin: the password, then the second step with a code. */
export async function adminApiToken(request: APIRequestContext) {
  const login = await request.post("/api/auth/login", { data: { email: ADMIN.email, password: ADMIN.password } });
  expect(login.status()).toBe(200);
  const { mfaToken } = (await login.json()) as { mfaToken: string };
  const verified = await request.post("/api/auth/mfa/verify", { data: { mfaToken, code: await adminCode() } });
  expect(verified.status()).toBe(200);
  return ((await verified.json()) as { accessToken: string }).accessToken;
}

export async function signOut(page: Page) {
  await page.getByLabel("Profile menu").click();
  await page.getByRole("button", { name: "Sign Out", exact: true }).click();
  await expectToast(page, "Logged Out", "You have been successfully logged out.");
}

/** The toast in the region labelled 'Notification' (at most one is visible). */
export async function expectToast(page: Page, title: string, description?: string) {
  const region = page.getByRole("region", { name: "Notification" });
  await expect(region.getByText(title, { exact: true })).toBeVisible();
  if (description) await expect(region.getByText(description, { exact: true })).toBeVisible();
}

/**
 * `field` shows `message` beside it as the user meets it: the field is marked invalid and the
 * message, visible, is one of the elements that describe it (aria-describedby), which a screen
 * reader reads with the field. The same with or without JavaScript (components/ui/field.tsx and
 * lib/dom/form-check.ts wire it alike).
 */
export async function expectFieldError(field: Locator, message: string) {
  await expect(field).toHaveAttribute("aria-invalid", "true");
  const described = (await field.getAttribute("aria-describedby"))?.split(" ").filter(Boolean) ?? [];
  expect(described, `${message}: the field names no description`).not.toEqual([]);
  const descriptions = field.page().locator(described.map((id) => `[id="${id}"]`).join(", "));
  await expect(descriptions.getByText(message, { exact: true })).toBeVisible();
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
export function withSettingsLock<T>(fn: () => Promise<T>): Promise<T> {
  return withFileLock("settings.lock", fn);
}

/** Runs `fn` while no other worker holds the lock `name` (a directory under DATA_DIR). */
async function withFileLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const lock = path.join(DATA_DIR, name);
  fs.mkdirSync(DATA_DIR, { recursive: true });
  for (let tries = 0; ; tries++) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      if (tries > 900) throw new Error(`${name} not released`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/** A member who bought Premium in test mode and asked for its refund (in `page`). */
export async function buyPremiumAndAskForRefund(page: Page, javaScriptEnabled: boolean) {
  const member = await signUp(page);
  await page.goto("/premium");
  await page.getByRole("button", { name: "Get Premium Access" }).click();
  await page.getByRole("button", { name: /^Pay \$\d+/ }).click();
  if (javaScriptEnabled) await expectToast(page, "Welcome to Premium!");
  else await expect(page.getByRole("heading", { name: "Welcome to Premium!" })).toBeVisible();
  await page.goto("/billing");
  await page.getByRole("link", { name: "Request Refund" }).first().click();
  await page.getByLabel("Reason for refund").selectOption("not-satisfied");
  await page.getByLabel("Detailed explanation").fill("The library does not cover my specialty yet.");
  await page.getByRole("button", { name: "Submit Refund Request" }).click();
  await expectToast(page, "Refund Request Submitted");
  return member;
}

/** Finds the user's row by their unique e-mail and starts one of its confirmed actions. */
export async function confirmOnRow(page: Page, email: string, action: string, confirmLabel: string) {
  await page.goto(`/admin/users?search=${encodeURIComponent(email)}`);
  const row = page.getByRole("row").filter({ hasText: email });
  await row.getByRole("link", { name: action, exact: true }).click();
  const step = page.getByRole("alertdialog").or(page.getByRole("dialog"));
  await expect(step).toBeVisible();
  await step.getByRole("button", { name: confirmLabel, exact: true }).click();
}

/**
 * Opens `path` and checks it loaded no React (decision 025): the static page script, not React
 * Router's framework chunk or client entry.
 */
export async function gotoWithoutReact(page: Page, path: string) {
  const scripts: string[] = [];
  const note = (request: Request) => {
    if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
  };
  page.on("request", note);
  await page.goto(path);
  page.off("request", note);
  expect(scripts.filter((script) => /framework|entry\.client/.test(script))).toEqual([]);
  expect(scripts.some((script) => /static-page/.test(script))).toBe(true);
}

/**
 * The computed font size (px) of the caption cue `video` shows `at` seconds in. The cue is drawn
 * in the <video>'s user-agent shadow tree, which neither the page nor
 * getComputedStyle(video, "::cue") can read (Chromium answers the element's own 16 px there):
 * Chromium's DevTools protocol can, by walking the document with shadow roots pierced to the node
 * whose pseudo is "cue". `target` is the page, or the frame of a player framed from another
 * site (its document may be in another process).
 */
export async function shownCaptionFontSize(video: Locator, { at = 1, target = video.page() }: { at?: number; target?: Page | Frame } = {}) {
  // Captions from 0 s (the demo's and streaming-source.ts's): one second in shows a cue.
  await video.evaluate(async (v: HTMLVideoElement, seconds) => {
    if (v.readyState < 1) await new Promise((resolve) => v.addEventListener("loadedmetadata", resolve, { once: true }));
    v.currentTime = seconds;
  }, at);
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => [...v.textTracks].some((track) => track.mode === "showing" && (track.activeCues?.length ?? 0) > 0)))
    .toBe(true);
  // A frame in the page's own process has no session of its own: the page's walks into it.
  const context = video.page().context();
  const cdp = await context.newCDPSession(target).catch(() => context.newCDPSession(video.page()));
  await cdp.send("DOM.enable");
  await cdp.send("CSS.enable");
  type DomNode = { nodeId: number; attributes?: string[]; children?: DomNode[]; shadowRoots?: DomNode[]; contentDocument?: DomNode };
  const cues: number[] = [];
  const walk = (node: DomNode) => {
    const attributes = node.attributes ?? [];
    if (attributes.includes("pseudo") && attributes[attributes.indexOf("pseudo") + 1] === "cue") cues.push(node.nodeId);
    const inside = [...(node.shadowRoots ?? []), ...(node.contentDocument ? [node.contentDocument] : []), ...(node.children ?? [])];
    for (const child of inside) walk(child);
  };
  await expect
    .poll(async () => {
      cues.length = 0;
      walk((await cdp.send("DOM.getDocument", { depth: -1, pierce: true })).root as DomNode);
      return cues.length;
    })
    .toBeGreaterThan(0);
  const { computedStyle } = await cdp.send("CSS.getComputedStyleForNode", { nodeId: cues[0]! });
  await cdp.detach();
  return parseFloat(computedStyle.find((property) => property.name === "font-size")!.value);
}
