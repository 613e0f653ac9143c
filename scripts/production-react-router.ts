// With NODE_ENV=production, the process loads React Router's production build
// (scripts/production-react-router.hooks.mjs says why). It must be registered before anything
// imports react-router: by `--import` (`npm run serve`, the bench's floor, the cluster tests) or
// imported first, before the app's modules (scripts/start.ts). Development and the tests keep the
// development build and its warnings.
import { register } from "node:module";

if (process.env.NODE_ENV === "production") register("./production-react-router.hooks.mjs", import.meta.url);
