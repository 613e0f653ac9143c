import { NavLink, Outlet } from "react-router";
import { adminPagesGuard } from "~/services/auth/guards.server.ts";
import type { Route } from "./+types/layout";

// The parent of every /admin page in app/routes.ts. Its middleware is the one admin guard for
// pages (decision 008): anonymous visitors go to /auth, signed-in non-admins to /, before any
// loader or action below it runs.
export const middleware: Route.MiddlewareFunction[] = [adminPagesGuard];

// The back office's sidebar, in its agreed order, with the dashboard first
// and the audit log last.
const SIDEBAR = [
  { to: "/admin", label: "Dashboard", end: true },
  { to: "/admin/animations", label: "Animations" },
  { to: "/admin/categories", label: "Categories" },
  { to: "/admin/users", label: "Users" },
  { to: "/admin/practices", label: "Practices" },
  { to: "/admin/doctors", label: "Doctors" },
  { to: "/admin/subscriptions", label: "Subscriptions" },
  { to: "/admin/email-manager", label: "Email Manager" },
  { to: "/admin/pages", label: "Pages" },
  { to: "/admin/refunds", label: "Refunds" },
  { to: "/admin/misuse", label: "Misuse Reports" },
  { to: "/admin/settings", label: "Settings" },
  { to: "/admin/audit", label: "Audit Log" },
];

export default function AdminLayout() {
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-8 lg:flex-row">
      <nav aria-label="Admin" className="shrink-0 lg:w-52">
        <p className="mb-2 px-3 text-xs font-semibold tracking-wide text-slate-500 uppercase">Admin</p>
        <ul className="flex flex-wrap gap-1 lg:flex-col">
          {SIDEBAR.map((item) => (
            <li key={item.to}>
              <NavLink
                to={item.to}
                end={item.end}
                className={({ isActive }) =>
                  `block rounded-lg px-3 py-2 text-sm font-medium ${isActive ? "bg-brand-50 text-brand-800" : "text-slate-700 hover:bg-slate-100"}`
                }
              >
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main className="min-w-0 flex-1">
        <Outlet />
      </main>
    </div>
  );
}
