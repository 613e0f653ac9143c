import fs from "node:fs";
import { defineConfig, devices } from "@playwright/test";

// The production build on its own port and its own data directory, never the developer's.
const PORT = Number(process.env.E2E_PORT ?? 3199);
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? "test-results/e2e-data";

// The whole suite, not files or tests picked on the command line: only then has its traffic
// reached every series tests/e2e/metrics.teardown.ts asks for (a purchase, a mail, a cache hit).
// Set in the runner and inherited by its workers, whose own arguments name no filter.
const picked = process.argv
  .slice(2)
  .some((arg) => /^(-g|--grep|--grep-invert|--last-failed|--only-changed)(=|$)/.test(arg) || (!arg.startsWith("-") && /\.ts$|\//.test(arg)));
process.env.E2E_WHOLE_SUITE ??= picked ? "0" : "1";

// Debian's headless shell (package chromium-headless-shell) when installed: Chromium's old
// headless mode, which Playwright itself prefers for headless runs. It used about a third less
// CPU than the full browser for the same screens here (2 cores shared by the server and two workers).
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const executablePath = process.env.CHROMIUM_PATH ?? (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium");

const chromium = {
  ...devices["Desktop Chrome"],
  launchOptions: {
    executablePath,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
    ],
  },
};

export default defineConfig({
  testDir: "tests/e2e",
  timeout: 30_000,
  expect: { timeout: 7_000 },
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  // Tracing every test to keep the failures' traces doubled the browsers' and the runner's CPU
  // (the screens spec: 46 s → 19 s of it). CI keeps a trace of a failure's retry instead.
  use: { baseURL: `http://localhost:${PORT}`, trace: process.env.CI ? "on-first-retry" : "retain-on-failure" },
  projects: [
    // The demo admin sets up its authenticator app first (admins must have a second factor).
    // After every project that depends on setup: /metrics shows the suite's traffic (metrics.teardown.ts).
    { name: "setup", use: { ...chromium, javaScriptEnabled: false }, testMatch: /\.setup\.ts$/, teardown: "metrics" },
    { name: "metrics", testMatch: /metrics\.teardown\.ts$/ },
    // tests/e2e/js-only/ holds behaviour that exists only with JavaScript (hydration, hotkeys).
    { name: "no-js", use: { ...chromium, javaScriptEnabled: false }, testIgnore: /js-only\//, dependencies: ["setup"] },
    // routes.spec.ts speaks HTTP only, no page: the no-js project's run is enough.
    { name: "js", use: { ...chromium, javaScriptEnabled: true }, testIgnore: /\/routes\.spec\.ts$/, dependencies: ["setup"] },
  ],
  webServer: {
    command: `rm -rf ${E2E_DATA_DIR} && tsx scripts/start.ts --no-build`,
    // Ready, not only up: the database, storage and the job workers answer.
    url: `http://localhost:${PORT}/readyz`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(PORT),
      DATA_DIR: E2E_DATA_DIR,
      NODE_ENV: "production",
      APP_URL: `http://localhost:${PORT}`,
      SESSION_SECRET: "e2e-session-secret-0123456789abcdef",
      JWT_SECRET: "e2e-jwt-secret-0123456789abcdef0123456789",
      MFA_ENCRYPTION_KEY: "e2e-mfa-key-0123456789abcdef0123456789",
      LOG_LEVEL: "warn",
      SIGNUPS_PER_HOUR: "1000",
      // The demo's 35 masters stay as stored: transcoding them took ~320 CPU-seconds of the run's
      // two cores and made the players' sources depend on how far the backlog got. Saves still
      // transcode (streaming.spec.ts uploads a master and plays its set).
      MEDIA_BACKFILL: "false",
      // The teardown project scrapes /metrics with it (tests/e2e/metrics.teardown.ts).
      METRICS_TOKEN: "e2e-metrics-token-0123456789abcdef",
      METRICS_PORT: "",
      DATABASE_URL: "",
      SMTP_URL: "",
    },
  },
});
