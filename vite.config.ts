import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { precompress } from "./vite.precompress.ts";
import { staticPageScript } from "./vite.static-page.ts";

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [tailwindcss(), reactRouter(), staticPageScript(), precompress()],
  resolve: { tsconfigPaths: true },
  build: {
    target: "es2022",
    rolldownOptions: {
      // The server build's entry is the Express app (which imports React Router's server build),
      // so server.ts loads one copy of the app's modules. React Router takes the entry from here.
      ...(isSsrBuild ? { input: "./app/server/app.ts" } : {}),
      // The OpenAPI document loads the /api route modules on demand (import.meta.glob); in the
      // server build they are one bundle anyway, which is all this warning says, once per route.
      onwarn(warning, warn) {
        if (warning.code === "INEFFECTIVE_DYNAMIC_IMPORT" && warning.message.includes("openapi.server.ts")) return;
        warn(warning);
      },
      output: {
        // Fewer, larger chunks for what every page loads: one file compresses better than several
        // (1.2 KB less gzip on the home page than the automatic split).
        codeSplitting: {
          groups: [
            { name: "framework", test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]|^\0rolldown[\\/]runtime/ },
            { name: "shell", test: /app[\\/]components[\\/](error-boundary|ui[\\/]button)\.tsx/ },
          ],
        },
      },
    },
  },
  server: { watch: { ignored: ["**/data/**", "**/build/**", "**/test-results/**"] } },
}));
