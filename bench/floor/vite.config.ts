import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";
import { productionReactRouter } from "../../vite.production-react-router.ts";

export default defineConfig({
  // The same React Router build as the app's, client and server, so the comparison stays fair.
  plugins: [productionReactRouter(), reactRouter()],
  build: { target: "es2022" },
});
