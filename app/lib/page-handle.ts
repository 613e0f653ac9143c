/** What a route module's `handle` tells the root about its page (read with useMatches). */
export type PageHandle = {
  /**
   * `false`: the page is whole as the server renders it and loads no React: the root writes the
   * static page script (app/static-page) in place of React Router's scripts (decision 025).
   */
  hydrate?: false;
};
