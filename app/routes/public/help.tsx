import { Link } from "~/components/ui/link.tsx";
import { Button, buttonClass } from "~/components/ui/button.tsx";
import { EmptyState } from "~/components/ui/empty-state.tsx";
import { Form } from "~/components/ui/form.tsx";
import { renderRichText } from "~/lib/sanitize.server.ts";
import { ConfirmButton, ConfirmPanel, type ConfirmStep } from "~/components/admin/confirm.tsx";
import { Badge } from "~/components/admin/data-table.tsx";
import { LOAD_AS_DOCUMENT, staticPageWith } from "~/lib/page-handle.ts";
import { getUser } from "~/services/auth/guards.server.ts";
import { groupFaqs, listFaqCategories, listFaqs, listFaqsForAdmin, registerFaqView } from "~/services/site/content.server.ts";
import { pageHead, siteOf } from "~/lib/seo.ts";
import type { Route } from "./+types/help";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageHead(siteOf(matches), {
    title: "Help Center",
    description: "Answers to common questions about animations, subscriptions, licenses and your account.",
    // ?q=, ?category= and ?faq= show parts of this one page.
    canonicalPath: "/help",
  });

// Help Center. Search and category filter are a GET form.
// Opening an FAQ registers a view: with JavaScript the page's script posts the <details> toggle
// to /api/faqs/{id}/view; a shared link to ?faq={id} renders the FAQ open and counts the view here.
// The question is plain text in its <summary> (a link inside one is a control inside a control,
// which screen readers cannot operate), so without JavaScript only linked opens count
// (docs/decisions/011-first-impression-and-accessibility.md).
// Admins also see inactive FAQs and the add, edit and delete controls; the forms live
// under /admin/faqs, behind the admin guard, and delete's confirm step renders here too.
// The page does not hydrate (decision 025): its script (app/static-page/help-page.ts) applies a
// chosen category at once and posts the views; an admin's delete asks on the page (?confirm=).
export const handle = staticPageWith("help");
export const clientMiddleware = LOAD_AS_DOCUMENT;

export async function loader({ request, url }: Route.LoaderArgs) {
  const q = url.searchParams.get("q")?.trim().slice(0, 200) ?? "";
  const category = url.searchParams.get("category")?.trim() ?? "";
  const faqParam = url.searchParams.get("faq");
  const isAdmin = (await getUser(request))?.role === "admin";
  const opened = faqParam ? await registerFaqView(faqParam) : null;
  const [categories, faqs] = await Promise.all([
    listFaqCategories(),
    (isAdmin ? listFaqsForAdmin : listFaqs)({ category, search: q }),
  ]);
  const confirmId = isAdmin ? url.searchParams.get("confirm") : null;
  const confirm = confirmId ? faqs.find((faq) => faq.id === confirmId) : undefined;
  return {
    q,
    category,
    isAdmin,
    categories: categories.map(({ id, name, slug }) => ({ id, name, slug })),
    // Answers are sanitised by the service; plain-text answers also get their line breaks.
    groups: groupFaqs(
      faqs.map((faq) => ({
        id: faq.id,
        question: faq.question,
        answer: renderRichText(faq.answer),
        categoryName: faq.categoryName,
        // Only admins' rows say whether they are active (visitors never get inactive ones).
        ...("isActive" in faq ? { isActive: faq.isActive } : {}),
      })),
    ),
    openId: opened !== null ? faqParam : null,
    confirm: confirm ? { id: confirm.id, question: confirm.question } : null,
  };
}

function deleteStep(faq: { id: string; question: string }): ConfirmStep {
  return { id: faq.id, intent: "delete", title: "Delete this FAQ?", message: `“${faq.question}” will be removed from the Help Center.`, confirmLabel: "Delete", pendingText: "Deleting...", action: "/admin/faqs" };
}

export default function HelpCenter({ loaderData: { q, category, categories, groups, openId, isAdmin, confirm } }: Route.ComponentProps) {
  return (
    <main className="mx-auto max-w-4xl px-4 py-12">
      <header className="text-center">
        <h1 className="text-4xl font-bold tracking-tight">Help Center</h1>
        <p className="mt-3 text-lg text-slate-600">Find answers to common questions about our animations, plans and your account.</p>
      </header>

      {isAdmin ? (
        <div className="mt-6 flex flex-col gap-4">
          {confirm ? <ConfirmPanel step={deleteStep(confirm)} /> : null}
          <div className="flex justify-end">
            <Link to="/admin/faqs/new" className={buttonClass({})}>
              Add FAQ
            </Link>
          </div>
        </div>
      ) : null}

      <Form method="get" action="/help" role="search" className="mt-8 flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex-1">
          <label htmlFor="help-q" className="mb-1 block text-sm font-medium text-slate-700">
            Search FAQs
          </label>
          <input
            id="help-q"
            type="search"
            name="q"
            defaultValue={q}
            maxLength={200}
            placeholder="Search for answers..."
            className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-100 focus:outline-none"
          />
        </div>
        <div>
          <label htmlFor="help-category" className="mb-1 block text-sm font-medium text-slate-700">
            Category
          </label>
          <select
            id="help-category"
            name="category"
            defaultValue={category}
            data-submit-on-change
            className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm sm:w-56"
          >
            <option value="">All Categories</option>
            {categories.map((c) => (
              <option key={c.id} value={c.slug}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit">Search</Button>
      </Form>

      {groups.length === 0 ? (
        <EmptyState
          className="mt-12"
          title="No FAQs found matching your search"
          action={
            q || category ? (
              <Link to="/help" className="text-brand-700 underline">
                Show all FAQs
              </Link>
            ) : null
          }
        />
      ) : (
        <div className="mt-10 flex flex-col gap-10">
          {groups.map((group, index) => (
            <section key={group.name} aria-labelledby={`faq-group-${index}`}>
              <h2 id={`faq-group-${index}`} className="text-2xl font-bold">
                {group.name}
              </h2>
              <div className="mt-4 divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white">
                {group.faqs.map((faq) => (
                  <div key={faq.id}>
                    <details
                      id={`faq-${faq.id}`}
                      open={faq.id === openId}
                      className="group scroll-mt-24 px-5 py-4"
                      data-view-url={`/api/faqs/${faq.id}/view`}
                      // The view of the FAQ a link opened is counted already, by the loader.
                      data-viewed={faq.id === openId ? true : undefined}
                    >
                      <summary className="flex cursor-pointer items-center justify-between gap-4 font-semibold hover:text-brand-700">
                        <span>{faq.question}</span>
                        <span aria-hidden="true" className="text-xl text-slate-400 transition group-open:rotate-45">
                          +
                        </span>
                      </summary>
                      {/* Sanitised on the server (app/lib/sanitize.server.ts). */}
                      <div className="rich-text mt-3" dangerouslySetInnerHTML={{ __html: faq.answer }} />
                    </details>
                    {isAdmin ? (
                      // Outside the <details>: the controls stay visible with the answer closed.
                      <div className="flex items-center gap-4 px-5 pb-4 text-sm">
                        {"isActive" in faq && faq.isActive === false ? <Badge tone="grey">Inactive</Badge> : null}
                        <Link to={`/admin/faqs/${faq.id}`} className="font-medium text-brand-700 hover:underline">
                          Edit<span className="sr-only"> “{faq.question}”</span>
                        </Link>
                        <ConfirmButton step={deleteStep(faq)}>
                          Delete<span className="sr-only"> “{faq.question}”</span>
                        </ConfirmButton>
                      </div>
                    ) : null}
                  </div>
                ))}
              </div>
            </section>
          ))}
        </div>
      )}

      <aside className="mt-16 rounded-2xl bg-brand-50 p-8 text-center">
        <h2 className="text-xl font-bold">Still need help?</h2>
        <p className="mt-2 text-slate-600">Our support team responds within 24 hours.</p>
        <Link to="/contact" className={buttonClass({}, "mt-4")}>
          Contact Support
        </Link>
      </aside>
    </main>
  );
}
