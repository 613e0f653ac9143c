import { type RouteConfig, route } from "@react-router/dev/routes";

export default [
  // A static page padded to the size (in bytes) given in the URL.
  route("page/:bytes", "routes/page.tsx"),
  // A resource route answering the JSON bytes the benchmark captured from the app.
  route("data/:name", "routes/data.ts"),
] satisfies RouteConfig;
