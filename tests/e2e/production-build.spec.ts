import { expect, test } from "@playwright/test";
import { MEMBER } from "./helpers.ts";

// The e2e server is started as `npm start` starts it (scripts/start.ts, NODE_ENV=production):
// it must run React Router's production build on the server (the file it resolved, which it
// reports on /metrics) and send the production build to browsers. The package's exports name
// only the development build, so without scripts/production-react-router.ts and
// vite.production-react-router.ts both sides run the development copy.
// HTTP only: the js project leaves this file out (playwright.config.ts).

const METRICS_TOKEN = "e2e-metrics-token-0123456789abcdef";
/** A development warning of React Router's: the development build's client code carries its text. */
const DEVELOPMENT_ONLY = "No routes matched location";
/** Text of React Router's own client code in either build: the scripts checked include the framework. */
const FRAMEWORK = "useNavigate() may be used only in the context of a <Router> component";

test("the server runs React Router's production build", async ({ request }) => {
  const res = await request.get("/metrics", { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.status()).toBe(200);
  expect(await res.text()).toMatch(/^medanim_react_router_build_info\{build="production"\} 1$/m);
});

// No page a visitor lands on loads React (decision 025): a page that hydrates, a member's dashboard.
test("a page that hydrates loads React Router's production build", async ({ request }) => {
  const { accessToken } = (await (await request.post("/api/auth/login", { data: MEMBER })).json()) as { accessToken: string };
  const html = await (await request.get("/dashboard", { headers: { Authorization: `Bearer ${accessToken}` } })).text();
  expect(html).toContain("__reactRouterContext");
  const scripts = new Set([...html.matchAll(/\/assets\/[^"'\s]+\.js/g)].map((m) => m[0]));
  let framework = 0;
  for (const src of scripts) {
    const body = await (await request.get(src)).text();
    if (body.includes(FRAMEWORK)) framework++;
    // A boolean: the whole framework chunk in a failure's message says nothing more.
    expect(body.includes(DEVELOPMENT_ONLY), `${src} holds React Router's development warnings`).toBe(false);
  }
  expect(framework).toBe(1);
});
