import { type RouteConfig, index, route } from "@react-router/dev/routes";

// The map of the product, in the order of the spec's route table (spec/public-and-user-side.md
// section 2, spec/admin-and-support.md section 2), grouped by area.
export default [
  // ---- public ----
  index("routes/public/home.tsx"),
  route("auth", "routes/public/auth.tsx"),
  route("sign-out", "routes/public/sign-out.tsx"),

  // ---- account ----
  route("dashboard", "routes/account/dashboard.tsx"),

  // ---- admin ----

  // ---- api ----
  route("api/auth/register", "routes/api/auth.register.ts"),
  route("api/auth/login", "routes/api/auth.login.ts"),
  route("api/auth/logout", "routes/api/auth.logout.ts"),
  route("api/auth/me", "routes/api/auth.me.ts"),
  route("api/auth/refresh", "routes/api/auth.refresh.ts"),
  route("api/*", "routes/api/not-found.ts"),

  // ---- catch-alls (last) ----
  route("*", "routes/public/not-found.tsx"),
] satisfies RouteConfig;
