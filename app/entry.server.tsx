import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { NonceProvider } from "~/components/nonce.tsx";
import { documentContext } from "~/lib/document-routes.server.ts";
import { logger } from "~/lib/logger.server.ts";
import { requestInfo } from "~/lib/request-context.server.ts";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const nonce = requestInfo(loadContext).cspNonce;
  // Bots and no-JavaScript browsers get the whole document at once; others may stream.
  const readyEvent = isbot(request.headers.get("user-agent") ?? "") || routerContext.isSpaMode
    ? "onAllReady"
    : "onShellReady";
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerRouter context={documentContext(routerContext)} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [readyEvent]() {
          shellRendered = true;
          const body = new PassThrough();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered && !request.signal.aborted) logger.error({ err: error, url: request.url }, "rendering failed");
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000);
  });
}

/**
 * Errors React Router caught in a loader, action or render. A stack only for the server's own
 * failures: a client that went away (or whose body the edge refused mid-stream) and React
 * Router's own 4xx answers (no route matches, method not allowed) are one request log line.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  // An internal error response carries the original error beside its status.
  const cause = isRouteErrorResponse(error) && (error as { error?: unknown }).error ? (error as { error?: unknown }).error : error;
  logger.error({ err: cause, method: request.method, url: request.url }, "request failed");
};
