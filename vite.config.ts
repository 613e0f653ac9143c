import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { precompress } from "./vite.precompress.ts";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), precompress()],
  resolve: { tsconfigPaths: true },
  build: { target: "es2022" },
  server: { watch: { ignored: ["**/data/**", "**/build/**", "**/test-results/**"] } },
});
