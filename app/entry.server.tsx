import { Writable } from "node:stream";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { NonceProvider } from "~/components/nonce.tsx";
import { StaticPageContext } from "~/components/ui/link.tsx";
import { documentContext, documentHydrates } from "~/lib/document-routes.server.ts";
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
  // Decided here, once: the root renders React Router's scripts or the static page's from it,
  // and a document without them is rendered without its loader data.
  const hydrates = documentHydrates(routerContext);
  const page = (
    <NonceProvider value={nonce}>
      <StaticPageContext.Provider value={!hydrates}>
        <ServerRouter context={documentContext(routerContext, hydrates)} url={request.url} nonce={nonce} />
      </StaticPageContext.Provider>
    </NonceProvider>
  );
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  // A document that does not hydrate has nothing to wait for: no loader data to stream in, no
  // Suspense. One synchronous pass to a string skips the stream machinery (React's chunk
  // buffers, the Writable) that was a tenth of a member's animation page (bench/README.md).
  if (!hydrates) return new Response(`<!DOCTYPE html>${renderToString(page)}`, { headers: responseHeaders, status: responseStatusCode });
  // Every loader awaits its data (no deferred parts), so streaming would only split one answer
  // into dozens of small writes, each through a web stream, the gzip stream and the socket. The
  // document is rendered whole and handed on as one buffer: compressed in one pass, written in
  // one go, and the same bytes for a browser, a bot and the page cache.
  return new Promise<Response>((resolve, reject) => {
    let rendered = false;
    const { pipe, abort } = renderToPipeableStream(page, {
      nonce,
      onAllReady() {
        rendered = true;
        const chunks: Buffer[] = [];
        const whole = new Writable({
          write(chunk: Buffer, _encoding, done) {
            chunks.push(chunk);
            done();
          },
          final(done) {
            resolve(new Response(Buffer.concat(chunks), { headers: responseHeaders, status: responseStatusCode }));
            done();
          },
        });
        pipe(whole);
      },
      onShellError(error: unknown) {
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        if (rendered && !request.signal.aborted) logger.error({ err: error, url: request.url }, "rendering failed");
      },
    });
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
