import { type MiddlewareFunction, redirectDocument } from "react-router";
import type { pageScripts } from "virtual:static-page-script";

/** What a route module's `handle` tells the server about its page (read by entry.server.tsx and the root). */
export type PageHandle = {
  /**
   * `false`: the page is whole as the server renders it and loads no React: the root writes the
   * static page script (app/static-page) in place of React Router's scripts (decision 025). A
   * function decides from the route's loader data (undefined when it failed): a page that only
   * some viewers use forms on (/premium's checkout) hydrates for them alone.
   */
  hydrate?: false | ((data: unknown) => boolean);
  /** A page that does not hydrate and needs a script of its own beside the shared one (vite.static-page.ts). */
  script?: keyof typeof pageScripts;
  /**
   * "bare": the page stands alone (the licensed embed, a patient link, a printable card): the
   * root writes it without the site's header, footer, toasts or shared script, in the loader
   * data's `lang`.
   */
  document?: "bare";
};

/**
 * Whether a document hydrates: unless a matched route's handle says otherwise. The server decides
 * (entry.server.tsx), once per document; `data` is each route's loader data.
 */
export function pageHydrates(pages: { handle: unknown; data: unknown }[]) {
  return pages.every(({ handle, data }) => {
    const hydrate = (handle as PageHandle | undefined)?.hydrate;
    return typeof hydrate === "function" ? hydrate(data) : hydrate !== false;
  });
}

/** The `handle` of a page that does not hydrate. */
export const STATIC_PAGE: PageHandle = { hydrate: false };

/** The `handle` of a page that does not hydrate and loads its own script too. */
export const staticPageWith = (script: NonNullable<PageHandle["script"]>): PageHandle => ({ hydrate: false, script });

/**
 * The `clientMiddleware` of a page that does not hydrate: a link or a redirect followed inside a
 * hydrated page loads it as a document, so it is never rendered by React in the browser (which
 * would need its script's behaviour a second time). Middleware, not a client loader: it stops the
 * navigation before the root's data is fetched, which would take the flash toast the document is
 * to show (sign-out's "Logged Out").
 */
export const LOAD_AS_DOCUMENT: MiddlewareFunction<undefined>[] = [
  ({ request }) => {
    throw redirectDocument(request.url);
  },
];
