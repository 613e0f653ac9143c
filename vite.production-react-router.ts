import type { Plugin } from "vite";

const DEVELOPMENT = "/node_modules/react-router/dist/development/";
const PRODUCTION = "/node_modules/react-router/dist/production/";

/**
 * The client bundle of a build takes React Router's production build: its package exports name
 * only dist/development (remix-run/react-router#14102), whose development warnings the minifier
 * then keeps. The server build leaves react-router external: the server process resolves it
 * (scripts/production-react-router.ts). `vite dev` keeps the development build.
 */
export function productionReactRouter(): Plugin {
  return {
    name: "medanim:production-react-router",
    apply: "build",
    enforce: "pre",
    applyToEnvironment: (environment) => environment.name === "client",
    async resolveId(source, importer, options) {
      if (source !== "react-router" && !source.startsWith("react-router/")) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved || !resolved.id.includes(DEVELOPMENT)) return resolved;
      return { ...resolved, id: resolved.id.replace(DEVELOPMENT, PRODUCTION) };
    },
  };
}
