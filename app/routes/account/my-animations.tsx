import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { Form } from "~/components/ui/form.tsx";
import { Link } from "~/components/ui/link.tsx";
import { AccountPage } from "~/components/account/account-screen.tsx";
import { EmbedLicences } from "~/components/account/embed-licences.tsx";
import { LibraryCard } from "~/components/account/library-card.tsx";
import { GeneralErrorBoundary } from "~/components/error-boundary.tsx";
import { Button, ButtonLink } from "~/components/ui/button.tsx";
import { EmptyState } from "~/components/ui/empty-state.tsx";
import { TextLink } from "~/components/ui/text-link.tsx";
import { hasGlobalAccess, getAccess } from "~/services/licensing/access.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { ServiceError } from "~/lib/errors.server.ts";
import { formError, readFormData } from "~/lib/form.server.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { addEmbedDomain, listEmbedLicences, removeEmbedDomain } from "~/services/licensing/embeds.server.ts";
import { getDownloads } from "~/services/licensing/library.server.ts";
import { LibrarySearchSchema } from "~/validation/account.ts";
import { AddEmbedDomainSchema, EmbedChoiceSchema, RemoveEmbedDomainSchema } from "~/validation/embed-domains.ts";
import { NOINDEX } from "~/lib/seo.ts";
import type { Route } from "./+types/my-animations";

export const meta: Route.MetaFunction = () => [{ title: "My Animations | Medanim" }, NOINDEX];

const PAGE_SIZE = 24;

export async function loader({ request, url }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const { q, page, licence, category } = LibrarySearchSchema.parse(Object.fromEntries(url.searchParams));
  const choice = EmbedChoiceSchema.parse(Object.fromEntries(url.searchParams));
  const now = new Date();
  const [library, access, embeds] = await Promise.all([
    getDownloads(user.id, { q, page, licence, category, pageSize: PAGE_SIZE, now }),
    getAccess(user, now),
    listEmbedLicences(user.id, now, choice),
  ]);
  return {
    ...library,
    q: q ?? "",
    licence: licence ?? "",
    category: category ?? "",
    streamsEverything: hasGlobalAccess(access),
    now: now.toISOString(),
    embeds,
  };
}

/** The embed sites of one's licences: add (intent add-domain) or remove (intent remove-domain). */
export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const formData = await readFormData(request);
  if (formData.get("intent") === "remove-domain") {
    const submission = parseWithZod(formData, { schema: RemoveEmbedDomainSchema });
    if (submission.status !== "success") return data({ message: "Domain not found" }, { status: 400 });
    const { licenceId, domainId } = submission.value;
    try {
      await removeEmbedDomain(user.id, licenceId, domainId);
    } catch (error) {
      return redirectWithToast("/my-animations#embeds", { title: "Error", description: errorMessage(error), type: "error" });
    }
    return redirectWithToast(`/my-animations#embed-${licenceId}`, { title: "Domain removed", description: "The embed no longer shows on that site." });
  }
  const submission = parseWithZod(formData, { schema: AddEmbedDomainSchema });
  const licenceId = String(formData.get("licenceId") ?? "");
  if (submission.status !== "success") return formError(submission, undefined, { licenceId });
  try {
    const domain = await addEmbedDomain(user.id, submission.value.licenceId, submission.value.host);
    return redirectWithToast(`/my-animations#embed-${licenceId}`, { title: "Domain added", description: `The embed may now show on ${domain.host}.` });
  } catch (error) {
    return formError(submission, error, { licenceId });
  }
}

function errorMessage(error: unknown) {
  if (error instanceof ServiceError) return error.message;
  throw error;
}

export default function MyAnimations({ loaderData, actionData }: Route.ComponentProps) {
  const { animations, total, page, pageSize, q, licence, category, categories, streamsEverything, now, embeds } = loaderData;
  const today = new Date(now);
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const filters = { ...(q ? { q } : {}), ...(licence ? { licence } : {}), ...(category ? { category } : {}) };
  const filtered = Object.keys(filters).length > 0;
  const pageLink = (n: number) => `?${new URLSearchParams({ ...filters, page: String(n) })}`;
  const selectClass =
    "block rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-100 focus:outline-none";
  return (
    <AccountPage
      title="My Animations"
      wide
      intro="Your downloads: every animation you or your practice hold an individual or category license for, with its package, its single files and its certificate."
    >
      {streamsEverything ? (
        <p className="mt-4 rounded-lg border border-brand-100 bg-brand-50 p-4 text-sm text-brand-700">
          Your premium access streams every animation in the library.{" "}
          <Link to="/" className="font-semibold underline">
            Browse all animations
          </Link>
        </p>
      ) : null}

      <Form method="get" role="search" className="mt-6 flex flex-wrap items-end gap-2">
        <label htmlFor="library-search" className="sr-only">
          Search your animations
        </label>
        <input
          id="library-search"
          type="search"
          name="q"
          defaultValue={q}
          placeholder="Search by title or description"
          className="block w-full max-w-sm min-w-0 basis-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-100 focus:outline-none sm:flex-1"
        />
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
          License
          <select name="licence" defaultValue={licence} className={selectClass}>
            <option value="">All licenses</option>
            <option value="individual">Individual licenses</option>
            <option value="category">Category licenses</option>
          </select>
        </label>
        {categories.length > 1 ? (
          <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
            Category
            <select name="category" defaultValue={category} className={selectClass}>
              <option value="">All categories</option>
              {categories.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <Button type="submit" variant="secondary">
          Search
        </Button>
      </Form>

      {animations.length ? (
        <>
          <h2 className="mt-4 text-sm font-normal text-slate-600" aria-live="polite">
            {total === 1 ? "1 animation" : `${total} animations`}
            {q ? ` matching "${q}"` : filtered ? " matching the filters" : ""}
          </h2>
          <ul className="mt-4 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {animations.map((a) => (
              <LibraryCard
                key={a.id}
                animation={a}
                now={today}
                certificateHref={a.licenceId ? `/licences/${a.licenceId}/certificate?animation=${a.id}` : null}
                downloads={a}
              />
            ))}
          </ul>
          {pages > 1 ? (
            <nav aria-label="Pages" className="mt-8 flex items-center justify-center gap-4 text-sm">
              {page > 1 ? <TextLink to={pageLink(page - 1)}>Previous</TextLink> : null}
              <span>
                Page {page} of {pages}
              </span>
              {page < pages ? <TextLink to={pageLink(page + 1)}>Next</TextLink> : null}
            </nav>
          ) : null}
        </>
      ) : (
        <EmptyState
          className="mt-8"
          title={q ? `No animations match "${q}"` : filtered ? "No animations match the filters" : "No licensed animations yet"}
          message={filtered ? "Try another search term or filter." : "License an animation or a whole category to download it and use it commercially."}
          action={
            filtered ? (
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

      <EmbedLicences
        licences={embeds}
        library={{ q, page }}
        lastResult={actionData && "result" in actionData && "licenceId" in actionData ? { licenceId: actionData.licenceId, result: actionData.result } : null}
      />
    </AccountPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
