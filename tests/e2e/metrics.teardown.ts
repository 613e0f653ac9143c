import { expect, test as teardown } from "@playwright/test";
import { samples } from "../helpers/prometheus-text.ts";

// After every project that depends on setup (playwright.config.ts: setup's teardown): the
// issue's acceptance, "/metrics shows the series after the e2e suite", read as Prometheus reads
// it, with the bearer token the web server was given. Each family an operator alerts on must
// have samples from the suite's own traffic: requests by route pattern, the database, the jobs
// the server ran at start, mail, a payment, and the shared cache.

const METRICS_TOKEN = "e2e-metrics-token-0123456789abcdef";

const total = (text: string, name: string, where: (labels: Record<string, string>) => boolean = () => true) =>
  samples(text, name)
    .filter((s) => where(s.labels))
    .reduce((sum, s) => sum + s.value, 0);

teardown("/metrics shows the suite's traffic, and refuses a scrape without the token", async ({ request }) => {
  const anonymous = await request.get("/metrics");
  expect(anonymous.status()).toBe(401);
  expect(await request.get("/metrics", { headers: { Authorization: "Bearer not-the-token-0123456789" } }).then((r) => r.status())).toBe(401);

  const res = await request.get("/metrics", { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.status()).toBe(200);
  const text = await res.text();

  // Requests, labelled by the route table's patterns: pages, /api and a not-found path.
  const routes = new Set(samples(text, "medanim_http_requests_total").map((s) => s.labels.route));
  // /readyz: the web server is polled there until it is ready (playwright.config.ts); /auth: the
  // setup project signs the admin in.
  expect([...routes]).toEqual(expect.arrayContaining(["/auth", "/readyz"]));
  expect(total(text, "medanim_http_request_duration_seconds_count")).toBeGreaterThan(0);
  // Patterns, never ids: no label holds a UUID.
  expect([...routes].filter((route) => /[0-9a-f]{8}-[0-9a-f]{4}-/i.test(route!))).toEqual([]);

  expect(total(text, "medanim_db_query_duration_seconds_count", (l) => l.source === "app")).toBeGreaterThan(0);
  expect(total(text, "medanim_db_query_duration_seconds_count", (l) => l.source === "jobs")).toBeGreaterThan(0);
  // The purge, billing sweep and media scan each run once as the server starts.
  expect(total(text, "medanim_job_duration_seconds_count", (l) => l.queue === "purge")).toBeGreaterThan(0);
  expect(samples(text, "medanim_job_queue_depth").map((s) => s.labels.queue)).toEqual(expect.arrayContaining(["email-campaign", "media-transcode"]));
  // What only the whole suite's traffic is sure to include (playwright.config.ts, E2E_WHOLE_SUITE):
  // a run of a few picked files may buy nothing and send no mail.
  if (process.env.E2E_WHOLE_SUITE !== "1") return;
  expect([...routes]).toContain("/");
  expect(total(text, "medanim_mail_messages_total", (l) => l.outcome === "sent")).toBeGreaterThan(0);
  expect(total(text, "medanim_payment_events_total", (l) => l.outcome === "applied")).toBeGreaterThan(0);
  expect(total(text, "medanim_cache_lookups_total", (l) => l.result === "hit")).toBeGreaterThan(0);
});
