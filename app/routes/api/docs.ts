import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { anyone } from "~/services/auth/guards.server.ts";
import { requestInfo } from "~/lib/request-context.server.ts";

// GET /api/docs: the readable reference, drawn in the browser by Swagger UI (served from our own
// /api/docs/assets, never a CDN) from GET /api/openapi.json. Its start-up script carries the
// response's CSP nonce, so the policy stays strict (no unsafe-eval, no unsafe-inline scripts).
// Without JavaScript the page still says how to start and links the document itself.
export const loader = apiRoute({
  GET: endpoint({
    summary: "This reference, readable (HTML)",
    description: "This reference as a readable page (HTML), drawn by Swagger UI from our own assets and GET /api/openapi.json. Changes nothing.",
    auth: anyone,
    produces: "text/html",
    run: ({ context }) => {
      const { cspNonce } = requestInfo(context);
      return new Response(page(cspNonce), {
        headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
      });
    },
  }),
});
export const action = loader;

const page = (nonce: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Medanim API reference</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
<style>
  body { margin: 0; font-family: system-ui, sans-serif; color: #1f2937; }
  .intro { max-width: 1400px; margin: 0 auto; padding: 24px 20px 0; }
  .intro h1 { font-size: 1.6rem; margin: 0 0 8px; }
  .intro ol { line-height: 1.6; padding-left: 1.2em; }
  .intro code { background: #f3f4f6; padding: 1px 4px; border-radius: 4px; }
</style>
</head>
<body>
<main>
<div class="intro">
  <h1>Medanim API reference</h1>
  <p>The JSON contract of Medanim. The machine-readable document is <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1). <a href="/">Back to Medanim</a></p>
  <h2>Getting started</h2>
  <ol>
    <li><strong>Sign in</strong>: <code>POST /api/auth/login</code> with <code>{"email","password"}</code> answers <code>accessToken</code> (15 minutes), <code>refreshToken</code> (30 days, usable once) and <code>user</code>.</li>
    <li><strong>Call</strong> with <code>Authorization: Bearer &lt;accessToken&gt;</code>, for example <code>GET /api/auth/me</code>.</li>
    <li><strong>Refresh</strong>: when a call answers 401, <code>POST /api/auth/refresh</code> with <code>{"refreshToken"}</code> gives a new pair; repeat the call once. A refresh token used twice revokes its whole family.</li>
    <li><strong>List animations</strong>: <code>GET /api/animations?category=cardiology&amp;page=1&amp;limit=20</code> answers <code>{ animations, hasMore, total }</code>; <code>light=true</code> gives the public cards.</li>
    <li><strong>Errors</strong>: every failure is <code>{ "message": "…", "errors": { "field": ["…"] } }</code> with a 4xx status; 429 comes with <code>Retry-After</code> in seconds.</li>
  </ol>
  <noscript><p>The interactive reference below needs JavaScript; the document itself is at <a href="/api/openapi.json">/api/openapi.json</a>.</p></noscript>
</div>
<div id="reference"></div>
</main>
<script nonce="${nonce}" src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script nonce="${nonce}">
  window.ui = SwaggerUIBundle({ url: "/api/openapi.json", dom_id: "#reference", deepLinking: true, tryItOutEnabled: false, validatorUrl: null });
</script>
</body>
</html>
`;
