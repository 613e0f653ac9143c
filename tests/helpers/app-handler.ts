import { createRequestHandler, type ServerBuild } from "react-router";
import { requestContext } from "~/lib/request-context.server.ts";

/**
 * The app's request handler over its real server build, as server.ts makes it. Load this module
 * through the same Vite server as the build (ssrLoadModule), so the handler, the build and the
 * load context share one copy of React Router.
 */
export function createAppHandler(build: ServerBuild) {
  const handler = createRequestHandler(build, "development");
  return (request: Request) => handler(request, requestContext({ cspNonce: "" }));
}
