/** The static page script's bundle and the chunks it imports (vite.static-page.ts). */
declare module "virtual:static-page-script" {
  const url: string;
  export const imports: string[];
  export default url;
}
