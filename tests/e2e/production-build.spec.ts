import { expect, test } from "@playwright/test";

// The e2e server is started as `npm start` starts it (scripts/start.ts, NODE_ENV=production):
// it must run React Router's production build on the server (the file it resolved, which it
// reports on /metrics). The package's exports name only the development build, so without
// scripts/production-react-router.ts the server runs the development copy. Browsers get the
// package as shipped (decision 027: the production client build saved 0.6 KB).
// HTTP only: the js project leaves this file out (playwright.config.ts).

const METRICS_TOKEN = "e2e-metrics-token-0123456789abcdef";

test("the server runs React Router's production build", async ({ request }) => {
  const res = await request.get("/metrics", { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.status()).toBe(200);
  expect(await res.text()).toMatch(/^medanim_react_router_build_info\{build="production"\} 1$/m);
});
