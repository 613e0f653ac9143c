import fs from "node:fs";
import path from "node:path";
import type { Plugin } from "vite";
import reactRouterConfig from "./react-router.config.ts";

/**
 * What the root imports: the URL of the script a page that does not hydrate loads instead of
 * React (the default export), the chunks it imports (`imports`), and the scripts of the pages
 * that need one more (`pageScripts`, by the name a route's handle gives).
 */
export const STATIC_PAGE_SCRIPT_ID = "virtual:static-page-script";
const RESOLVED = `\0${STATIC_PAGE_SCRIPT_ID}`;
const SOURCE = "app/static-page/enhance.ts";
/**
 * A page's own script, loaded beside the shared one only where that page is: `search` (/search),
 * `help` (/help), `animation` (an animation's page), `form` (forms checked before they are sent,
 * and passkey buttons: /contact, /auth and the password reset), `player` (a player alone: the
 * licensed embed and a patient link). The names are the ones a route's handle gives
 * (`PageHandle.script`, typed from these keys).
 */
export const PAGE_SOURCES = {
  search: "app/static-page/search-page.ts",
  help: "app/static-page/help-page.ts",
  animation: "app/static-page/animation-page.ts",
  form: "app/static-page/form-page.ts",
  player: "app/static-page/player-page.ts",
} as const;

/**
 * Pages that do not hydrate (decision 025) load one small script of their own instead of
 * React: `app/static-page/enhance.ts`, bundled as an entry of the client build (hashed and
 * precompressed like every other asset). The server build, which runs after the client build,
 * gets its file name from `virtual:static-page-script`; `vite dev` and the tests get the source's
 * path, which Vite's dev server serves compiled.
 */
export function staticPageScript(): Plugin {
  let command: "build" | "serve" = "serve";
  let clientAssets = "";
  return {
    name: "medanim:static-page-script",
    configResolved(config) {
      command = config.command;
      // React Router writes the client build to {buildDirectory}/client.
      clientAssets = path.resolve(config.root, reactRouterConfig.buildDirectory ?? "build", "client", config.build.assetsDir);
    },
    buildStart() {
      if (command !== "build" || this.environment?.name !== "client") return;
      this.emitFile({ type: "chunk", id: SOURCE, name: "static-page" });
      for (const [name, id] of Object.entries(PAGE_SOURCES)) this.emitFile({ type: "chunk", id, name: `page-script-${name}` });
    },
    resolveId(source) {
      return source === STATIC_PAGE_SCRIPT_ID ? RESOLVED : null;
    },
    load(id) {
      if (id !== RESOLVED) return null;
      if (command === "serve")
        return moduleOf(
          `/${SOURCE}`,
          [],
          mapValues((source) => ({ src: `/${source}`, imports: [] })),
        );
      // The root renders the tags on the server only: the client bundle needs no names.
      if (this.environment?.name === "client")
        return moduleOf(
          "",
          [],
          mapValues(() => ({ src: "", imports: [] })),
        );
      // The server build (a plugin instance of its own) reads the names the client build wrote.
      const files = fs.existsSync(clientAssets) ? fs.readdirSync(clientAssets).filter((name) => /^static-page-[\w-]+\.js$/.test(name)) : [];
      if (files.length !== 1) throw new Error(`expected one static page script in ${clientAssets}, found ${files.length}: the client build runs first`);
      const base = `/${path.basename(clientAssets)}/`;
      // The chunks a script imports, and theirs (shared with the hydrating pages' bundle: lib/dom,
      // lib/format), preloaded beside it so that none waits for the one that imports it.
      const imports = (file: string, seen = new Set<string>()): string[] => {
        const code = fs.readFileSync(path.join(clientAssets, file), "utf8");
        for (const [, chunk] of code.matchAll(/(?:^|[;}\s])import\s*(?:[\w{}\s,*$]+from\s*)?["']\.\/([\w.-]+\.js)["']/g)) {
          if (seen.has(chunk!)) continue;
          seen.add(chunk!);
          imports(chunk!, seen);
        }
        return [...seen].map((chunk) => base + chunk);
      };
      const pageScripts = mapValues((_, name) => {
        const file = fs.readdirSync(clientAssets).find((entry) => entry.startsWith(`page-script-${name}-`) && entry.endsWith(".js"));
        if (!file) throw new Error(`no page script "${name}" in ${clientAssets}`);
        return { src: base + file, imports: imports(file) };
      });
      return moduleOf(base + files[0], imports(files[0]!), pageScripts);
    },
  };
}

type PageScript = { src: string; imports: string[] };

const mapValues = (to: (source: string, name: string) => PageScript) =>
  Object.fromEntries(Object.entries(PAGE_SOURCES).map(([name, source]) => [name, to(source, name)]));

const moduleOf = (url: string, imports: string[], pageScripts: Record<string, PageScript>) =>
  `export default ${JSON.stringify(url)};\nexport const imports = ${JSON.stringify(imports)};\nexport const pageScripts = ${JSON.stringify(pageScripts)};`;
