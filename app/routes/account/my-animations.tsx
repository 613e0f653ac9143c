import { Form, Link } from "react-router";
import { AccountPage } from "~/components/account/account-screen.tsx";
import { LibraryCard } from "~/components/account/library-card.tsx";
import { GeneralErrorBoundary } from "~/components/error-boundary.tsx";
import { Button, ButtonLink } from "~/components/ui/button.tsx";
import { EmptyState } from "~/components/ui/empty-state.tsx";
import { TextLink } from "~/components/ui/text-link.tsx";
import { hasGlobalAccess, getAccess } from "~/services/access.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { getLibrary } from "~/services/library.server.ts";
import { LibrarySearchSchema } from "~/validation/account.ts";
import type { Route } from "./+types/my-animations";

export const meta: Route.MetaFunction = () => [{ title: "My Animations | Medanim" }];

const PAGE_SIZE = 24;

export async function loader({ request, url }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const { q, page } = LibrarySearchSchema.parse(Object.fromEntries(url.searchParams));
  const now = new Date();
  const [library, access] = await Promise.all([getLibrary(user.id, { q, page, pageSize: PAGE_SIZE, now }), getAccess(user, now)]);
  return { ...library, q: q ?? "", streamsEverything: hasGlobalAccess(access), now: now.toISOString() };
}

export default function MyAnimations({ loaderData }: Route.ComponentProps) {
  const { animations, total, page, pageSize, q, streamsEverything, now } = loaderData;
  const today = new Date(now);
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const pageLink = (n: number) => `?${new URLSearchParams({ ...(q ? { q } : {}), page: String(n) })}`;
  return (
    <AccountPage title="My Animations" wide intro="Animations you hold an individual or category licence for, with download and commercial rights.">

      {streamsEverything ? (
        <p className="mt-4 rounded-lg border border-brand-100 bg-brand-50 p-4 text-sm text-brand-700">
          Your premium access streams every animation in the library.{" "}
          <Link to="/" className="font-semibold underline">
            Browse all animations
          </Link>
        </p>
      ) : null}

      <Form method="get" role="search" className="mt-6 flex max-w-xl gap-2">
        <label htmlFor="library-search" className="sr-only">
          Search your animations
        </label>
        <input
          id="library-search"
          type="search"
          name="q"
          defaultValue={q}
          placeholder="Search by title or description"
          className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-100 focus:outline-none"
        />
        <Button type="submit" variant="secondary">
          Search
        </Button>
      </Form>

      {animations.length ? (
        <>
          <h2 className="mt-4 text-sm font-normal text-slate-600" aria-live="polite">
            {total === 1 ? "1 animation" : `${total} animations`}
            {q ? ` matching "${q}"` : ""}
          </h2>
          <ul className="mt-4 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {animations.map((a) => (
              <LibraryCard
                key={a.id}
                animation={a}
                now={today}
                certificateHref={a.licenceId ? `/licences/${a.licenceId}/certificate` : null}
              />
            ))}
          </ul>
          {pages > 1 ? (
            <nav aria-label="Pages" className="mt-8 flex items-center justify-center gap-4 text-sm">
              {page > 1 ? (
                <TextLink to={pageLink(page - 1)}>Previous</TextLink>
              ) : null}
              <span>
                Page {page} of {pages}
              </span>
              {page < pages ? (
                <TextLink to={pageLink(page + 1)}>Next</TextLink>
              ) : null}
            </nav>
          ) : null}
        </>
      ) : (
        <EmptyState
          className="mt-8"
          title={q ? `No animations match "${q}"` : "No licensed animations yet"}
          message={q ? "Try another search term." : "Licence an animation or a whole category to download it and use it commercially."}
          action={
            q ? (
              <ButtonLink to="/my-animations" variant="secondary" size="sm">
                Clear search
              </ButtonLink>
            ) : (
              <ButtonLink to="/" size="sm">
                Browse Library
              </ButtonLink>
            )
          }
        />
      )}
    </AccountPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
