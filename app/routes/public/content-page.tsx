import { ErrorScreen, GeneralErrorBoundary } from "~/components/error-boundary.tsx";
import { formatLongDate } from "~/lib/format.ts";
import { pageTitle } from "~/lib/meta.ts";
import { renderRichText } from "~/lib/sanitize.server.ts";
import { getUser } from "~/services/auth/guards.server.ts";
import { getPage } from "~/services/site/content.server.ts";
import { pageHead, siteOf } from "~/lib/seo.ts";
import type { Route } from "./+types/content-page";
import { invariantResponse } from "~/lib/errors.server.ts";
import { LOAD_AS_DOCUMENT, STATIC_PAGE } from "~/lib/page-handle.ts";

// No behaviour of its own: the page does not hydrate (decision 025); the static page script
// adds the header's, the toast's and the cards' (lib/page-handle.ts).
export const handle = STATIC_PAGE;
export const clientMiddleware = LOAD_AS_DOCUMENT;

// One module for /{slug}, /about and /pages/{slug} (all three render Page records:
// docs/architecture.md, "Product decisions"). Drafts are shown to admins only, so an admin can
// preview from the page manager.
export async function loader({ request, params }: Route.LoaderArgs) {
  const slug = "slug" in params && params.slug ? params.slug : "about";
  const user = await getUser(request);
  const page = await getPage(slug, { includeDrafts: user?.role === "admin", cached: true });
  invariantResponse(page, "Page not found", { status: 404 });
  return {
    page: {
      title: page.title,
      html: renderRichText(page.content),
      metaDescription: page.metaDescription,
      isPublished: page.isPublished,
      updatedAt: formatLongDate(page.updatedAt),
      // /pages/{slug} shows the same page as /{slug}, the address the footer links to.
      path: `/${encodeURIComponent(slug)}`,
    },
  };
}

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) => {
  if (!loaderData) return [{ title: pageTitle(matches, "Page Not Found") }];
  const { page } = loaderData;
  return pageHead(siteOf(matches), {
    title: page.title,
    description: page.metaDescription || page.html,
    canonicalPath: page.path,
    // A draft is shown to admins only, as a preview.
    robots: page.isPublished ? "index" : "noindex",
  });
};

export default function ContentPage({ loaderData: { page } }: Route.ComponentProps) {
  return (
    <main className="mx-auto max-w-3xl px-4 py-12">
      {!page.isPublished ? (
        <p role="note" className="mb-6 rounded-lg border border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-900">
          Draft: only administrators can see this page.
        </p>
      ) : null}
      <article>
        <h1 className="text-4xl font-bold tracking-tight">{page.title}</h1>
        <p className="mt-2 text-sm text-slate-500">Last updated {page.updatedAt}</p>
        {/* Sanitised on the server (app/lib/sanitize.server.ts) before it gets here. */}
        <div className="rich-text mt-8" dangerouslySetInnerHTML={{ __html: page.html }} />
      </article>
    </main>
  );
}

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        404: () => <ErrorScreen title="Page Not Found" message="The page you are looking for does not exist or has been moved." />,
      }}
    />
  );
}
