/** The static page script's bundle, the chunks it imports and the pages' own scripts (vite.static-page.ts). */
declare module "virtual:static-page-script" {
  const url: string;
  export const imports: string[];
  export const pageScripts: { search: string; help: string };
  export default url;
}
