/** The static page script's bundle, the chunks it imports and the pages' own scripts (vite.static-page.ts). */
declare module "virtual:static-page-script" {
  const url: string;
  export const imports: string[];
  /** Each page script's URL and the chunks it imports (preloaded beside it), by the name a route's handle gives. */
  export const pageScripts: Record<keyof typeof import("../../vite.static-page.ts").PAGE_SOURCES, { src: string; imports: string[] }>;
  export default url;
}
