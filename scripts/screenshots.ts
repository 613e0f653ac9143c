// `npm run screenshots`: regenerates docs/screenshots/ (linked from the README) from a fresh
// demo database: the home, an animation, premium, a licence page, the member's billing and the
// admin dashboard, each at a desktop (1280 px) and a phone (390 px) width, with JavaScript on.
// It starts its own server (`npm start` on a temporary data directory and SCREENSHOT_PORT,
// default 3377), so the pictures never show a developer's own data. Chromium: CHROMIUM_PATH or
// Debian's /usr/bin/chromium.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser } from "@playwright/test";

const PORT = Number(process.env.SCREENSHOT_PORT ?? 3377);
const BASE = `http://localhost:${PORT}`;
const OUT = path.resolve("docs/screenshots");
const WIDTHS = [
  { name: "desktop", width: 1280, height: 860 },
  { name: "phone", width: 390, height: 844 },
] as const;
const MEMBER = { email: "member@medanim.local", password: "member12345" };
const ADMIN = { email: process.env.SEED_ADMIN_EMAIL ?? "admin@medanim.local", password: process.env.SEED_ADMIN_PASSWORD ?? "admin12345" };

const SHOTS: Array<{ name: string; path: string; as?: typeof MEMBER }> = [
  { name: "home", path: "/" },
  { name: "detail", path: "/animations/open_rhinoplasty_reshaping_the_nasal_framework" },
  { name: "premium", path: "/premium" },
  { name: "licence", path: "/category-license" },
  { name: "billing", path: "/billing", as: MEMBER },
  { name: "admin", path: "/admin", as: ADMIN },
];

async function waitForServer(deadline: number) {
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${BASE}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`The app did not answer on ${BASE}/healthz`);
}

async function sessionFile(browser: Browser, who: typeof MEMBER, dir: string) {
  const file = path.join(dir, `${who.email}.json`);
  if (fs.existsSync(file)) return file;
  const context = await browser.newContext({ baseURL: BASE });
  const page = await context.newPage();
  await page.goto("/auth");
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL(/\/dashboard$/);
  await context.storageState({ path: file });
  await context.close();
  return file;
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-screenshots-"));
const server = spawn("npx", ["tsx", "scripts/start.ts"], {
  stdio: ["ignore", "inherit", "inherit"],
  env: { ...process.env, PORT: String(PORT), DATA_DIR: dataDir, APP_URL: BASE, DATABASE_URL: "", SMTP_URL: "", LOG_LEVEL: "warn" },
  detached: true,
});
let browser: Browser | undefined;
try {
  await waitForServer(Date.now() + 240_000);
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
  fs.mkdirSync(OUT, { recursive: true });
  for (const shot of SHOTS) {
    const storageState = shot.as ? await sessionFile(browser, shot.as, dataDir) : undefined;
    for (const size of WIDTHS) {
      const context = await browser.newContext({ baseURL: BASE, storageState, viewport: { width: size.width, height: size.height } });
      const page = await context.newPage();
      await page.goto(shot.path, { waitUntil: "networkidle" });
      await page.evaluate(() => document.fonts.ready);
      const file = path.join(OUT, `${shot.name}-${size.name}.png`);
      await page.screenshot({ path: file, animations: "disabled" });
      console.log(`${path.relative(process.cwd(), file)} (${Math.round(fs.statSync(file).size / 1024)} KB)`);
      await context.close();
    }
  }
} finally {
  await browser?.close();
  if (server.pid) process.kill(-server.pid, "SIGTERM");
  fs.rmSync(dataDir, { recursive: true, force: true });
}
