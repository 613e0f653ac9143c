import { useContext, useEffect, useRef } from "react";
import { data, Links, Meta, Outlet, Scripts, ScrollRestoration, useLoaderData, useLocation, useMatches, useRouteLoaderData } from "react-router";
import staticPageScript, { imports as staticPageImports, pageScripts } from "virtual:static-page-script";
import type { Route } from "./+types/root";
import { GeneralErrorBoundary } from "./components/error-boundary.tsx";
import { PerformanceReporter } from "./components/performance-reporter.tsx";
import { SiteFooter, SiteHeader } from "./components/layout.tsx";
import { useNonce } from "./components/nonce.tsx";
import { Toaster } from "./components/ui/toast.tsx";
import { getLayoutData } from "./services/site/content.server.ts";
import { getCategoryTree } from "./services/catalogue/categories.server.ts";
import { getUser } from "./services/auth/guards.server.ts";
import { getToast } from "./lib/toast.server.ts";
import { siteOrigin } from "./lib/seo.server.ts";
import { THEME_COLOR } from "./lib/brand.ts";
import { StaticPageContext } from "~/components/ui/link.tsx";
import type { PageHandle } from "./lib/page-handle.ts";
import stylesheet from "./app.css?url";

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  // public/favicon.ico (32 px, made from the SVG with ffmpeg) answers browsers that ask without a link.
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  // Installing the site (scripts/make-icons.ts makes its PNGs). No apple-touch-icon link: Safari
  // asks for /apple-touch-icon.png at the root by itself, and the home page's script may not grow.
  { rel: "manifest", href: "/manifest.webmanifest" },
];

export async function loader({ request }: Route.LoaderArgs) {
  const [user, { toast, headers }, layout, tree] = await Promise.all([getUser(request), getToast(request), getLayoutData(), getCategoryTree()]);
  return data(
    {
      user: user && {
        id: user.id,
        username: user.username,
        email: user.email,
        firstName: user.firstName,
        lastName: user.lastName,
        role: user.role,
        accountType: user.accountType,
      },
      toast,
      year: new Date().getUTCFullYear(),
      // The header's Categories menu: the cached category tree's main categories, in the admin's order.
      categories: tree.mains.map(({ slug, name }) => ({ slug, name })),
      // Canonical and social URLs are absolute (lib/seo.ts siteOf).
      origin: siteOrigin(request),
      ...layout,
    },
    { headers },
  );
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const rootData = useRouteLoaderData<typeof loader>("root");
  // A page whose route says it does not hydrate (entry.server.tsx decides, from the handles) gets
  // the static page script instead of React Router's: no module preloads, no loader data in the
  // document, no React (decision 025). React renders in the browser only documents that
  // hydrated, or pages reached client-side, where there is no provider: a page that does not
  // hydrate for everybody is either loaded as a document (LOAD_AS_DOCUMENT) or has no behaviour
  // but React's (/premium for a visitor).
  const hydrates = !useContext(StaticPageContext);
  const matches = useMatches();
  const handles = matches.map((match) => match.handle as PageHandle | undefined);
  const pageScript = handles.find((handle) => handle?.script)?.script;
  const bare = bareDocument(matches);
  if (bare) {
    // A page that stands alone (the clinic's embed, a patient's link): the site's header, footer, toasts
    // and shared script are not the patient's business, and a framed document stays small.
    const scripts = pageScript ? pageScripts[pageScript] : null;
    return (
      <html lang={bare.lang}>
        <head>
          <meta charSet="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <Meta />
          <Links />
        </head>
        <body className="font-sans antialiased">
          {children}
          {scripts ? (
            <>
              {scripts.imports.map((href) => (
                <link key={href} rel="modulepreload" href={href} nonce={nonce} />
              ))}
              <script type="module" src={scripts.src} nonce={nonce} />
            </>
          ) : null}
        </body>
      </html>
    );
  }
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content={THEME_COLOR} />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col font-sans antialiased">
        <SiteHeader user={rootData?.user ?? null} platformName={rootData?.platformName ?? "Medanim"} categories={rootData?.categories ?? []} />
        {/* The skip link's target; each page has its own <main>. */}
        <div id="content" tabIndex={-1} className="flex-1 outline-none">
          {children}
        </div>
        <SiteFooter
          legalPages={rootData?.legalPages ?? []}
          platformName={rootData?.platformName ?? "Medanim"}
          year={rootData?.year ?? new Date().getUTCFullYear()}
        />
        <Toaster toast={rootData?.toast ?? null} />
        {hydrates ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : (
          <>
            {[...new Set([...staticPageImports, ...(pageScript ? pageScripts[pageScript].imports : [])])].map((href) => (
              <link key={href} rel="modulepreload" href={href} nonce={nonce} />
            ))}
            <script type="module" src={staticPageScript} nonce={nonce} />
            {pageScript ? <script type="module" src={pageScripts[pageScript].src} nonce={nonce} /> : null}
          </>
        )}
      </body>
    </html>
  );
}

/** The language of a page whose route asks for a bare document (`handle.document`), or null. */
function bareDocument(matches: ReturnType<typeof useMatches>) {
  const match = matches.find((m) => (m.handle as PageHandle | undefined)?.document === "bare");
  if (!match) return null;
  const lang = (match.loaderData as { lang?: unknown } | undefined)?.lang;
  return { lang: typeof lang === "string" ? lang : "en" };
}

/**
 * After a client-side page change, focus moves to the new page's content, as a full load would
 * start there: a screen reader announces the new page, and Tab goes on from its top rather than
 * from a link that is gone.
 */
function useFocusOnPageChange() {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    document.getElementById("content")?.focus({ preventScroll: true });
  }, [pathname]);
}

export default function App() {
  useLoaderData<typeof loader>();
  useFocusOnPageChange();
  return (
    <>
      <Outlet />
      <PerformanceReporter />
    </>
  );
}

// The head of a screen no route below renders itself: an error caught here (a page that threw
// without a boundary of its own). An error screen never belongs in an index. (Written out, not
// lib/seo.ts's NOINDEX: importing it would put that module on the home page's first load.)
export const meta: Route.MetaFunction = ({ data, error }) => [
  { title: data?.platformName ?? "Medanim" },
  { name: "description", content: "Medical and plastic-surgery animations for patient education." },
  ...(error ? [{ name: "robots", content: "noindex" }] : []),
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
