import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnv } from "~/lib/env.server.ts";
import { testApp } from "../helpers/app.ts";
import { createApp } from "~/server/app.ts";

// The app's front door (tests/helpers/app.ts): the real middleware stack and routes.
let base: string;

beforeAll(async () => {
  // The page cache off in this file only: it reads the headers a render sends (a fresh nonce
  // per response); a kept answer's are page-cache.test.ts's.
  process.env.PAGE_CACHE_MS = "0";
  resetEnv();
  base = (await testApp()).origin;
});

afterAll(() => {
  delete process.env.PAGE_CACHE_MS;
  resetEnv();
});

describe("security headers", () => {
  it("enforces a CSP with a fresh nonce per response, and sends no x-powered-by", async () => {
    const [a, b] = await Promise.all([fetch(`${base}/`), fetch(`${base}/`)]);
    const csp = a.headers.get("content-security-policy")!;
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    for (const directive of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]) expect(csp).toContain(directive);
    expect(a.headers.get("content-security-policy-report-only")).toBeNull();
    const nonceA = csp.match(/'nonce-([^']+)'/)![1];
    const nonceB = b.headers.get("content-security-policy")!.match(/'nonce-([^']+)'/)![1];
    expect(nonceA).not.toBe(nonceB);
    expect(await a.text()).toContain(`nonce="${nonceA}"`);
    expect(a.headers.get("x-powered-by")).toBeNull();
    expect(a.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("lets no Stripe origin in while Stripe is not configured (test mode)", async () => {
    const csp = (await fetch(`${base}/`)).headers.get("content-security-policy")!;
    expect(csp).not.toContain("stripe.com");
    expect(csp).toContain("frame-src 'self';");
    expect(csp).toContain("form-action 'self';");
  });

  it("adds Stripe.js, its frames, its API and Stripe Checkout's form target when Stripe is configured", async () => {
    Object.assign(process.env, { STRIPE_SECRET_KEY: "sk_test_csp", STRIPE_PUBLISHABLE_KEY: "pk_test_csp", STRIPE_WEBHOOK_SECRET: "whsec_csp" });
    resetEnv();
    let stripeServer: Server | undefined;
    try {
      const app = await createApp({ mode: "production", build: (await testApp()).build });
      stripeServer = app.listen(0);
      await new Promise((resolve) => stripeServer!.once("listening", resolve));
      const res = await fetch(`http://127.0.0.1:${(stripeServer.address() as AddressInfo).port}/`);
      const directives = new Map(
        res.headers
          .get("content-security-policy")!
          .split("; ")
          .map((d) => [d.split(" ")[0]!, d.split(" ").slice(1)] as const),
      );
      expect(directives.get("script-src")).toEqual(expect.arrayContaining(["'self'", "'strict-dynamic'", "https://js.stripe.com"]));
      expect(directives.get("frame-src")).toEqual(["'self'", "https://js.stripe.com", "https://hooks.stripe.com"]);
      expect(directives.get("connect-src")).toEqual(["'self'", "https://api.stripe.com"]);
      expect(directives.get("form-action")).toEqual(["'self'", "https://checkout.stripe.com"]);
    } finally {
      await new Promise<void>((resolve) => (stripeServer ? stripeServer.close(() => resolve()) : resolve()));
      for (const key of ["STRIPE_SECRET_KEY", "STRIPE_PUBLISHABLE_KEY", "STRIPE_WEBHOOK_SECRET"]) delete process.env[key];
      resetEnv();
    }
  });

  it("names MEDIA_BASE_URL's origin where the players fetch from it: media, images and hls.js's requests", async () => {
    // An http origin on purpose: https: alone would already cover an https CDN.
    Object.assign(process.env, { MEDIA_BASE_URL: "http://cdn.medanim.test:8080/base/" });
    resetEnv();
    let server: Server | undefined;
    try {
      const app = await createApp({ mode: "production", build: (await testApp()).build });
      server = app.listen(0);
      await new Promise((resolve) => server!.once("listening", resolve));
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      const directives = new Map(
        res.headers
          .get("content-security-policy")!
          .split("; ")
          .map((d) => [d.split(" ")[0]!, d.split(" ").slice(1)] as const),
      );
      for (const name of ["media-src", "img-src", "connect-src"]) expect(directives.get(name), name).toContain("http://cdn.medanim.test:8080");
      // hls.js plays from a MediaSource: its blob: URL stays allowed, and no worker is needed.
      expect(directives.get("media-src")).toContain("blob:");
      expect(directives.has("worker-src")).toBe(false);
    } finally {
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      delete process.env.MEDIA_BASE_URL;
      resetEnv();
    }
  });

  it("compresses responses", async () => {
    const res = await fetch(`${base}/`, { headers: { "Accept-Encoding": "gzip" } });
    expect(res.headers.get("content-encoding")).toBe("gzip");
  });
});

describe("GET /healthz", () => {
  it("answers ok after pinging the database", async () => {
    const res = await fetch(`${base}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });
});

describe("body limits", () => {
  it("answers 413 to a JSON or form body over 1 MB", async () => {
    const big = JSON.stringify({ text: "x".repeat(1024 * 1024 + 10) });
    const json = await fetch(`${base}/api/contact`, { method: "POST", headers: { "Content-Type": "application/json" }, body: big });
    expect(json.status).toBe(413);
    const form = await fetch(`${base}/contact`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: `message=${"x".repeat(1024 * 1024 + 10)}`,
    });
    expect(form.status).toBe(413);
  });

  it("lets a body under the limit through to the route (which refuses the empty message)", async () => {
    const res = await fetch(`${base}/api/contact`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ errors: expect.any(Object) });
  });
});

describe("cross-site request refusal", () => {
  const post = (path: string, headers: Record<string, string>) =>
    fetch(`${base}${path}`, { method: "POST", redirect: "manual", headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers }, body: "a=1" });

  it("refuses a state-changing request marked cross-site or from another origin", async () => {
    expect((await post("/sign-out", { "Sec-Fetch-Site": "cross-site" })).status).toBe(403);
    expect((await post("/sign-out", { Origin: "https://evil.example" })).status).toBe(403);
    expect((await post("/sign-out", { Origin: "null" })).status).toBe(403);
  });

  it("accepts same-origin requests, payment webhooks and bearer-token API calls", async () => {
    // Each reaches its route, which answers for itself: sign-out redirects home, the webhook
    // refuses an unsigned event, the bearer call refuses the bad token.
    expect((await post("/sign-out", { Origin: base, "Sec-Fetch-Site": "same-origin" })).status).toBe(302);
    expect((await post("/api/webhooks/stripe", { "Sec-Fetch-Site": "cross-site", Origin: "https://stripe.com" })).status).toBe(400);
    expect((await post("/api/auth/logout", { Origin: "https://client.example", Authorization: "Bearer x" })).status).not.toBe(403);
  });

  it("does not exempt a bearer call that also carries cookies", async () => {
    const res = await post("/api/auth/logout", { Origin: "https://evil.example", Authorization: "Bearer x", Cookie: "medanim_session=abc" });
    expect(res.status).toBe(403);
  });
});

describe("APP_ROLE=worker", () => {
  it("runs as `npm run serve` does but answers only its health: pages and the API belong to web instances", async () => {
    const { spawn } = await import("node:child_process");
    const fs = await import("node:fs");
    const os = await import("node:os");
    const path = await import("node:path");
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-worker-"));
    const port = 3400 + Math.floor(Math.random() * 500);
    const child = spawn(path.resolve("node_modules/.bin/tsx"), ["server.ts"], {
      env: { ...process.env, APP_ROLE: "worker", PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "silent", NODE_ENV: "development" },
      stdio: "ignore",
    });
    try {
      await expect
        .poll(async () => (await fetch(`http://localhost:${port}/healthz`).catch(() => null))?.status ?? 0, { timeout: 60_000, interval: 250 })
        .toBe(200);
      expect(await (await fetch(`http://localhost:${port}/healthz`)).json()).toEqual({ status: "ok", role: "worker" });
      const page = await fetch(`http://localhost:${port}/`);
      expect(page.status).toBe(404);
      expect(await page.json()).toEqual({ message: "This instance runs jobs only" });
      expect((await fetch(`http://localhost:${port}/api/animations`)).status).toBe(404);
    } finally {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
