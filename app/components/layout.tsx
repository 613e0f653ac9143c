import { useEffect, useRef } from "react";
import { useNavigation } from "react-router";
import { Form } from "~/components/ui/form.tsx";
import { Link } from "~/components/ui/link.tsx";
import { oneMenuAtATime } from "~/lib/dom/menus.ts";

type HeaderUser = { username: string; email: string; firstName: string; lastName: string; role: "user" | "admin" } | null;
type NavCategory = { slug: string; name: string };

const PRICING = [
  ["/premium", "Premium – all animations"],
  ["/category-license", "Category license"],
  ["/individual-license", "Individual license"],
] as const;

/**
 * The sticky header (logo, search, profile) with the site's sections: categories, pricing
 * and help. Menus are <details>, so they open without JavaScript. The sections are rendered
 * once: on a phone they are hidden until the "Menu" toggle before the logo is open, then drop
 * down under the header (CSS).
 */
export function SiteHeader({ user, platformName, categories }: { user: HeaderUser; platformName: string; categories: NavCategory[] }) {
  const header = useRef<HTMLElement>(null);
  useOneMenuAtATime(header);
  return (
    <header ref={header} className="site-header">
      <a href="#content" className="skip-link">
        Skip to content
      </a>
      <div className="site-header-bar">
        <details name={PANEL_GROUP} className="menu-toggle" data-testid="phone-menu">
          <summary className="header-button" aria-label="Menu">
            <span aria-hidden="true" className="icon-menu block h-6 w-6" />
          </summary>
        </details>
        <Link to="/" className="site-logo" aria-label={`${platformName} home`}>
          <span aria-hidden="true" className="icon-logo h-8 w-8" />
          <span>{platformName}</span>
        </Link>
        <nav className="site-nav" aria-label="Main">
          <MainLinks categories={categories} />
        </nav>
        <Link to="/search" className="header-button" aria-label="Search">
          <span aria-hidden="true" className="icon-search block h-5 w-5" />
        </Link>
        {user ? (
          <ProfileMenu user={user} />
        ) : (
          <Link to="/auth" className="header-button" aria-label="Sign in">
            <span aria-hidden="true" className="icon-user block h-5 w-5" />
          </Link>
        )}
      </div>
    </header>
  );
}

/*
 * Without JavaScript, <details name> keeps one menu of a group open. The groups are the menus
 * that would overlap: the phone's Menu panel and the profile panel both drop down under the
 * header; Categories and Pricing drop down side by side. (Categories under the phone's Menu must
 * not close the Menu it sits in, so the two cannot share one group.)
 */
const PANEL_GROUP = "header-panel";
const SECTION_GROUP = "header-section";

/**
 * With JavaScript: opening any header menu closes every other one (lib/dom/menus.ts), and a
 * page change closes them all, as a full page load would.
 */
function useOneMenuAtATime(header: React.RefObject<HTMLElement | null>) {
  const navigating = useNavigation().state !== "idle";
  useEffect(() => {
    // When a page change starts, not once the new page is shown: a menu opened on the new page
    // (the moment its address changed) stays open. Never on hydration, where nothing navigates.
    if (!navigating) return;
    for (const open of header.current?.querySelectorAll("details[open]") ?? []) (open as HTMLDetailsElement).open = false;
  }, [header, navigating]);
  useEffect(() => {
    if (header.current) return oneMenuAtATime(header.current);
  }, [header]);
}

/** Categories, pricing and help: inline on a desktop, under the phone's "Menu". */
function MainLinks({ categories }: { categories: NavCategory[] }) {
  return (
    <>
      <Dropdown label="Categories">
        {categories.map((c) => (
          <MenuLink key={c.slug} to={`/category/${c.slug}`}>
            {c.name}
          </MenuLink>
        ))}
        <MenuLink to="/search">All animations</MenuLink>
      </Dropdown>
      <Dropdown label="Pricing">
        {PRICING.map(([to, label]) => (
          <MenuLink key={to} to={to}>
            {label}
          </MenuLink>
        ))}
      </Dropdown>
      <Link to="/help" className="nav-link">
        Help
      </Link>
    </>
  );
}

function Dropdown({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <details name={SECTION_GROUP} className="relative">
      <summary className="caret nav-link">{label}</summary>
      <ul className="nav-list">{children}</ul>
    </details>
  );
}

/** The person's initials ("Grace Hopper" → "GH"); the username's first letter if no name is set. */
function initials(user: NonNullable<HeaderUser>) {
  return (user.firstName.slice(0, 1) + user.lastName.slice(0, 1) || user.username.slice(0, 1)).toUpperCase();
}

/** A <details> dropdown: it opens and closes without JavaScript. */
function ProfileMenu({ user }: { user: NonNullable<HeaderUser> }) {
  return (
    <details name={PANEL_GROUP} className="relative" data-testid="profile-menu">
      {/* The name starts with what is seen (WCAG 2.5.3: speech users say "JL"). */}
      <summary className="avatar" aria-label={`${initials(user)}, Profile menu`}>
        {initials(user)}
      </summary>
      <div className="menu-panel">
        <div className="border-b border-slate-100 px-4 pb-2">
          <p className="font-semibold">{user.username}</p>
          <p className="truncate text-sm text-slate-600">{user.email}</p>
        </div>
        <ul className="py-1 text-sm">
          <MenuLink to="/my-animations">My Animations</MenuLink>
          <MenuLink to="/dashboard">Dashboard</MenuLink>
          <MenuLink to="/practice">Practice</MenuLink>
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
      <Link to={to} className="menu-link">
        {children}
      </Link>
    </li>
  );
}

// The copyright line starts at 2025; the range grows with the calendar instead of staying put.
const FIRST_YEAR = 2025;

export function SiteFooter({ legalPages, platformName, year }: { legalPages: Array<{ slug: string; title: string }>; platformName: string; year: number }) {
  return (
    <footer className="mt-16 border-t border-slate-200 bg-white">
      <div className="site-footer-bar">
        <nav aria-label="Footer" className="flex flex-wrap gap-x-6 gap-y-2">
          <Link to="/about" className="footer-link">
            About Us
          </Link>
          <Link to="/contact" className="footer-link">
            Contact
          </Link>
          <Link to="/help" className="footer-link">
            Help
          </Link>
          {legalPages.map((page) => (
            <Link key={page.slug} to={`/${page.slug}`} className="footer-link">
              {page.title}
            </Link>
          ))}
        </nav>
        <p>
          © {year > FIRST_YEAR ? `${FIRST_YEAR}–${year}` : FIRST_YEAR} {platformName}. All medical animations are owned by {platformName} and protected by
          copyright.
        </p>
      </div>
    </footer>
  );
}
