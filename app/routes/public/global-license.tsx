import { Link } from "~/components/ui/link.tsx";
import { buttonClass } from "~/components/ui/button.tsx";
import { formatPrice, pluralize } from "~/lib/format.ts";
import { getCatalogueClaims } from "~/services/catalogue/claims.server.ts";
import { listLicensableCategories } from "~/services/commerce/offers.server.ts";
import { pageHead, siteOf } from "~/lib/seo.ts";
import type { Route } from "./+types/global-license";
import { LOAD_AS_DOCUMENT, STATIC_PAGE } from "~/lib/page-handle.ts";

// No behaviour of its own: the page does not hydrate (decision 025); the static page script
// adds the header's, the toast's and the cards' (lib/page-handle.ts).
export const handle = STATIC_PAGE;
export const clientMiddleware = LOAD_AS_DOCUMENT;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageHead(siteOf(matches), {
    title: "Choose a Category to License",
    description: "Pick the medical specialty to license: each category's animations with downloads and commercial rights for a year.",
    canonicalPath: "/global-license",
  });

// /global-license is "choose a category to licence", the step after the category licence
// page (docs/architecture.md, "Product decisions"). Each sub-category leads to its checkout
// page; a main category is only their heading (only sub-categories are sold, decision 009).
export async function loader({ url }: Route.LoaderArgs) {
  const selected = url.searchParams.get("category");
  const [categories, claims] = await Promise.all([listLicensableCategories(), getCatalogueClaims()]);
  return { categories, selected, resolution: claims.resolution };
}

export default function GlobalLicensePage({ loaderData: { categories, selected, resolution } }: Route.ComponentProps) {
  return (
    <main className="mx-auto max-w-5xl px-4 py-12">
      <header className="text-center">
        <h1 className="text-4xl font-bold tracking-tight">Choose a Category to License</h1>
        <p className="mt-3 text-lg text-slate-600">
          A Category License gives you every animation in the category, downloads{resolution ? ` in up to ${resolution}` : ""}, commercial rights and Premium access.
        </p>
      </header>
      {categories.length === 0 ? (
        <p className="mt-12 text-center text-slate-600">No categories are available for licensing yet.</p>
      ) : (
        <div className="mt-10 flex flex-col gap-10">
          {categories.map((main) => (
            <section key={main.id} aria-labelledby={`main-${main.id}`}>
              <h2 id={`main-${main.id}`} className="text-2xl font-bold">
                {main.name}
              </h2>
              {main.description ? <p className="mt-1 text-slate-600">{main.description}</p> : null}
              {main.subcategories.length === 0 ? (
                <p className="mt-3 text-slate-500">No specialties in this category yet.</p>
              ) : (
                <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
                  {main.subcategories.map((sub) => {
                    const isSelected = selected === sub.slug || selected === sub.id;
                    return (
                      <li
                        key={sub.id}
                        className={`flex flex-col rounded-xl border bg-white p-5 ${isSelected ? "border-brand-500 ring-2 ring-brand-100" : "border-slate-200"}`}
                        aria-current={isSelected ? "true" : undefined}
                      >
                        <h3 className="font-semibold">{sub.name}</h3>
                        <p className="mt-1 text-sm text-slate-500">{pluralize(sub.animationCount, "animation")}</p>
                        {sub.description ? <p className="mt-2 line-clamp-3 text-sm text-slate-600">{sub.description}</p> : null}
                        <p className="mt-4 text-2xl font-bold">
                          {formatPrice(sub.price)}
                          <span className="text-base font-normal text-slate-500">/year</span>
                        </p>
                        <Link
                          to={`/purchase/category/${sub.slug}`}
                          className={buttonClass({}, "mt-4")}
                        >
                          License {sub.name}
                        </Link>
                      </li>
                    );
                  })}
                </ul>
              )}
            </section>
          ))}
        </div>
      )}
      <p className="mt-12 text-center text-sm text-slate-500">
        Looking for a single animation? See the <Link to="/individual-license" className="text-brand-700 underline">Individual License</Link>.
      </p>
    </main>
  );
}
