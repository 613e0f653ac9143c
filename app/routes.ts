import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

// The map of the product, in the order of the spec's route table (spec/public-and-user-side.md
// section 2, spec/admin-and-support.md section 2), grouped by area.
export default [
  // ---- public ----
  index("routes/public/home.tsx"),
  route("auth", "routes/public/auth.tsx"),
  route("sign-out", "routes/public/sign-out.tsx"),
  route("search", "routes/public/search.tsx"),
  route("animations/:slug", "routes/public/animation.tsx"),
  route("animation/:slug", "routes/public/animation-redirect.tsx"),
  route("category/:slug", "routes/public/category.tsx"),
  route("category/:mainSlug/:subSlug", "routes/public/category-sub.tsx"),
  route("category/:mainSlug/:subSlug/:animationSlug", "routes/public/animation.tsx", { id: "category-animation" }),
  route("legacy/category/:slug", "routes/public/legacy-category.tsx"),
  route("doctors/:slugOrId", "routes/public/doctor.tsx"),
  route("premium", "routes/public/premium.tsx"),
  route("individual-license", "routes/public/individual-license.tsx"),
  route("category-license", "routes/public/category-license.tsx"),
  route("global-license", "routes/public/global-license.tsx"),
  route("help", "routes/public/help.tsx"),
  route("contact", "routes/public/contact.tsx"),
  route("about", "routes/public/content-page.tsx", { id: "about-page" }),
  route("pages/:slug", "routes/public/content-page.tsx", { id: "pages-page" }),
  route("verify-email", "routes/public/verify-email.tsx"),
  route("forgot-password", "routes/public/forgot-password.tsx"),
  route("reset-password", "routes/public/reset-password.tsx"),
  route("licences/:id/verify", "routes/public/licence-verify.tsx"),
  // Content pages by slug (footer legal links): after every specific public route.
  route(":slug", "routes/public/content-page.tsx"),

  // ---- account ----
  route("dashboard", "routes/account/dashboard.tsx"),
  route("my-animations", "routes/account/my-animations.tsx"),
  route("billing", "routes/account/billing.tsx"),
  route("billing/receipts/:paymentId", "routes/account/receipt.tsx"),
  route("billing/receipts/:paymentId/pdf", "routes/account/receipt-pdf.ts"),
  route("licences/:id/certificate", "routes/account/certificate.ts"),
  route("profile", "routes/account/profile.tsx"),
  route("notifications", "routes/account/notifications.tsx"),
  route("refund", "routes/account/refund.tsx"),
  route("watch/:id", "routes/account/watch.tsx"),
  route("purchase/individual/:idOrSlug", "routes/account/purchase.tsx", { id: "purchase-individual" }),
  route("purchase/category/:slugOrId", "routes/account/purchase.tsx", { id: "purchase-category" }),
  route("checkout/test/:checkoutId", "routes/checkout/test.tsx"),
  route("checkout/return", "routes/checkout/return.tsx"),

  // ---- admin ----
  // Every page below passes the admin guard, the middleware of routes/admin/layout.tsx
  // (decision 008); tests/integration/admin-guard.test.ts walks them all.
  layout("routes/admin/layout.tsx", [
    route("admin", "routes/admin/dashboard.tsx"),
    route("admin/audit", "routes/admin/audit.tsx"),
    route("admin/animations/:id/medical", "routes/admin/animation-medical.tsx"),
  ]),

  // ---- api ----
  route("api/auth/register", "routes/api/auth.register.ts"),
  route("api/auth/login", "routes/api/auth.login.ts"),
  route("api/auth/logout", "routes/api/auth.logout.ts"),
  route("api/auth/me", "routes/api/auth.me.ts"),
  route("api/auth/refresh", "routes/api/auth.refresh.ts"),
  route("api/animations", "routes/api/animations.ts"),
  route("api/animations/:slugOrId", "routes/api/animations.slug.ts"),
  route("api/categories", "routes/api/categories.ts"),
  route("api/categories/main", "routes/api/categories.main.ts"),
  route("api/categories/path/:mainSlug/:subSlug?", "routes/api/categories.path.ts"),
  route("api/categories/:slugOrId", "routes/api/categories.slug.ts"),
  route("api/doctors", "routes/api/doctors.ts"),
  route("api/doctors/:slugOrId", "routes/api/doctors.slug.ts"),
  route("api/report-misuse", "routes/api/report-misuse.ts"),
  route("api/settings", "routes/api/settings.ts"),
  route("api/pages/type/:type", "routes/api/pages.type.ts"),
  route("api/pages/slug/:slug", "routes/api/pages.slug.ts"),
  route("api/faq-categories", "routes/api/faq-categories.ts"),
  route("api/faqs", "routes/api/faqs.ts"),
  route("api/faqs/:id/view", "routes/api/faqs.view.ts"),
  route("api/contact", "routes/api/contact.ts"),
  route("api/performance/:kind", "routes/api/performance.ts"),
  route("api/auth/verify-email", "routes/api/auth.verify-email.ts"),
  route("api/auth/resend-verification", "routes/api/auth.resend-verification.ts"),
  route("api/auth/forgot-password", "routes/api/auth.forgot-password.ts"),
  route("api/auth/reset-password", "routes/api/auth.reset-password.ts"),
  route("api/auth/profile", "routes/api/auth.profile.ts"),
  route("api/notifications/preferences", "routes/api/notifications.preferences.ts"),
  route("api/subscriptions/me", "routes/api/subscriptions.me.ts"),
  route("api/payments/me", "routes/api/payments.me.ts"),
  route("api/subscriptions/global", "routes/api/subscriptions.global.ts"),
  route("api/subscriptions/individual", "routes/api/subscriptions.individual.ts"),
  route("api/subscriptions/category", "routes/api/subscriptions.category.ts"),
  route("api/payments/success", "routes/api/payments.success.ts"),
  route("api/checkout/test/:checkoutId", "routes/api/checkout.test.ts"),
  route("api/webhooks/stripe", "routes/api/webhooks.stripe.ts"),
  route("api/dashboard/stats", "routes/api/dashboard.stats.ts"),
  route("api/dashboard/animations", "routes/api/dashboard.animations.ts"),
  route("api/refunds/request", "routes/api/refunds.request.ts"),
  route("api/objects/upload", "routes/api/objects.upload.ts"),
  // ---- api: admin ---- every call below passes the admin guard of routes/api/admin/guard.ts.
  // Admin writes on shared paths (POST /api/animations, ...) name requireAdmin per method.
  layout("routes/api/admin/guard.ts", [
    route("api/admin/dashboard", "routes/api/admin/dashboard.ts"),
  ]),
  route("api/*", "routes/api/not-found.ts"),

  // ---- catch-alls (last) ----
  route("*", "routes/public/not-found.tsx"),
] satisfies RouteConfig;
