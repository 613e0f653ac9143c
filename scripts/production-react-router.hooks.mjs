// Module-resolution hooks (registered by scripts/production-react-router.ts): React Router 7's
// package exports name only dist/development, so a production server would run the copy with
// the development warnings (remix-run/react-router#14102). Every bare `react-router` import
// (server.ts's modules, @react-router/express, @react-router/node, build/server/index.js) is sent
// to the same file in dist/production, so the process still holds one copy: its contexts
// (app/lib/request-context.server.ts) keep one identity. Plain JavaScript: it runs on Node's
// loader thread whatever else is registered there.

const DEVELOPMENT = "/node_modules/react-router/dist/development/";
const PRODUCTION = "/node_modules/react-router/dist/production/";

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  // Only the package's entries: their relative imports then stay inside dist/production.
  if (specifier !== "react-router" && !specifier.startsWith("react-router/")) return resolved;
  if (!resolved.url.includes(DEVELOPMENT)) return resolved;
  return { ...resolved, url: resolved.url.replace(DEVELOPMENT, PRODUCTION) };
}
