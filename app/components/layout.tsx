import { Form, Link } from "react-router";

type HeaderUser = { username: string; email: string; role: "user" | "admin" } | null;

export function SiteHeader({ user, platformName }: { user: HeaderUser; platformName: string }) {
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4">
        <Link to="/" className="flex items-center gap-2 text-lg font-bold text-brand-700" aria-label={`${platformName} home`}>
          <span aria-hidden="true" className="icon-logo h-8 w-8" />
          <span>{platformName}</span>
        </Link>
        <nav className="flex items-center gap-2" aria-label="Main">
          <Link to="/search" className="rounded-lg p-2 text-slate-600 hover:bg-slate-100" aria-label="Search">
            <span aria-hidden="true" className="icon-search block h-5 w-5" />
          </Link>
          {user ? <ProfileMenu user={user} /> : (
            <Link to="/auth" className="rounded-lg p-2 text-slate-600 hover:bg-slate-100" aria-label="Sign in">
              <span aria-hidden="true" className="icon-user block h-5 w-5" />
            </Link>
          )}
        </nav>
      </div>
    </header>
  );
}

/** A <details> dropdown: it opens and closes without JavaScript. */
function ProfileMenu({ user }: { user: NonNullable<HeaderUser> }) {
  return (
    <details className="relative" data-testid="profile-menu">
      <summary
        className="flex h-9 w-9 items-center justify-center rounded-full bg-brand-600 text-sm font-semibold text-white uppercase"
        aria-label="Profile menu"
      >
        {user.username.slice(0, 1)}
      </summary>
      <div className="absolute right-0 mt-2 w-64 rounded-xl border border-slate-200 bg-white py-2 shadow-lg">
        <div className="border-b border-slate-100 px-4 pb-2">
          <p className="font-semibold">{user.username}</p>
          <p className="truncate text-sm text-slate-500">{user.email}</p>
        </div>
        <ul className="py-1 text-sm">
          <MenuLink to="/my-animations">My Animations</MenuLink>
          <MenuLink to="/dashboard">Dashboard</MenuLink>
          <MenuLink to="/profile">Profile Settings</MenuLink>
          {user.role === "admin" ? <MenuLink to="/admin">Admin Panel</MenuLink> : null}
        </ul>
        <Form method="post" action="/sign-out" className="border-t border-slate-100 pt-1">
          <button type="submit" className="block w-full px-4 py-2 text-left text-sm text-red-700 hover:bg-red-50">
            Sign Out
          </button>
        </Form>
      </div>
    </details>
  );
}

function MenuLink({ to, children }: { to: string; children: string }) {
  return (
    <li>
      <Link to={to} className="block px-4 py-2 hover:bg-slate-50">
        {children}
      </Link>
    </li>
  );
}

export function SiteFooter({ legalPages, platformName }: { legalPages: Array<{ slug: string; title: string }>; platformName: string }) {
  return (
    <footer className="mt-16 border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-7xl flex-col gap-4 px-4 py-8 text-sm text-slate-600 md:flex-row md:items-center md:justify-between">
        <nav aria-label="Footer" className="flex flex-wrap gap-x-6 gap-y-2">
          <Link to="/about" className="hover:text-brand-700">
            About Us
          </Link>
          <Link to="/contact" className="hover:text-brand-700">
            Contact
          </Link>
          {legalPages.map((page) => (
            <Link key={page.slug} to={`/${page.slug}`} className="hover:text-brand-700">
              {page.title}
            </Link>
          ))}
        </nav>
        <p>
          © 2025 {platformName}. All medical animations are owned by {platformName} and protected by copyright.
        </p>
      </div>
    </footer>
  );
}
