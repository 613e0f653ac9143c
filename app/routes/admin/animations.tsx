import { Form } from "~/components/ui/form.tsx";
import { ActionToast } from "~/components/admin/action-toast.tsx";
import { AdminPage } from "~/components/admin/admin-page.tsx";
import { CategoryOptions } from "~/components/admin/category-options.tsx";
import { ConfirmButton, ConfirmPanel, type ConfirmStep } from "~/components/admin/confirm.tsx";
import { Badge, DataTable } from "~/components/admin/data-table.tsx";
import { FilterForm, Pager, SearchInput } from "~/components/admin/list-controls.tsx";
import { ButtonLink } from "~/components/ui/button.tsx";
import { ResponsiveImage } from "~/components/ui/responsive-image.tsx";
import { TextLink } from "~/components/ui/text-link.tsx";
import { formatDuration, formatMoney } from "~/lib/format.ts";
import { backToList, confirmTarget, runListAction } from "~/lib/list-query.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { requireStepUp } from "~/services/auth/step-up.server.ts";
import {
  deleteAnimation,
  getAdminAnimation,
  getCategoryTree,
  listAdminAnimations,
  setAnimationPublished,
} from "~/services/catalogue/animation-admin.server.ts";
import { AnimationListQuerySchema, PUBLISH_STATES, type PublishState } from "~/validation/admin-catalogue.ts";
import { NOINDEX } from "~/lib/seo.ts";
import type { Route } from "./+types/animations";

export const meta: Route.MetaFunction = () => [{ title: "Animations | Admin" }, NOINDEX];

export async function loader({ url }: Route.LoaderArgs) {
  const query = AnimationListQuerySchema.parse(Object.fromEntries(url.searchParams));
  const target = confirmTarget(url, ["delete"]);
  const [list, categories, confirm] = await Promise.all([listAdminAnimations(query), getCategoryTree(), target ? getAdminAnimation(target.id) : null]);
  return { ...list, query, categories, confirm: confirm && { id: confirm.id, title: confirm.title } };
}

export async function action({ request, url }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const publish = (published: boolean) => async (id: string) => {
    const animation = await setAnimationPublished(admin, id, published);
    return { title: published ? "Animation Published" : "Animation Unpublished", description: animation.title };
  };
  // Failure toasts: "Failed to delete animation" / "Failed to update animation"; the server's message preferred.
  return runListAction(request, backToList("/admin/animations", url), {
    delete: {
      failed: "Failed to delete animation",
      run: async (id) => {
        await requireStepUp(request);
        return { title: "Animation Deleted", description: `${(await deleteAnimation(admin, id)).title} was deleted.` };
      },
    },
    // Refused until the video is processed and (as the settings require) reviewed: a 409 that
    // keeps the list and names what is missing.
    publish: { failed: "Failed to update animation", run: publish(true), refuseInPlace: true },
    unpublish: { failed: "Failed to update animation", run: publish(false) },
  });
}

const deleteStep = (animation: { id: string; title: string }): ConfirmStep => ({
  id: animation.id,
  intent: "delete",
  title: `Delete “${animation.title}”?`,
  message:
    "Are you sure you want to delete this animation? Its doctors' links, captions and preview jobs go with it. An animation members hold licenses for cannot be deleted: unpublish it instead.",
  confirmLabel: "Delete",
  pendingText: "Deleting...",
});

const JOB_TONES = { failed: "red" } as const;
const STATE_TONES: Record<PublishState, "grey" | "blue" | "yellow" | "green" | "red"> = {
  draft: "grey",
  processing: "blue",
  review: "yellow",
  ready: "yellow",
  published: "green",
  "review-due": "red",
};

export default function AdminAnimations({ loaderData, actionData }: Route.ComponentProps) {
  const { animations, page, hasNext, query, categories, confirm } = loaderData;
  return (
    <AdminPage
      title="Animations"
      description="The library: create, edit, publish and delete animations."
      actions={<ButtonLink to="/admin/animations/new">New Animation</ButtonLink>}
    >
      <ActionToast toast={actionData && "toast" in actionData ? actionData.toast : null} />
      {confirm ? <ConfirmPanel step={deleteStep(confirm)} /> : null}
      <FilterForm clearTo="/admin/animations">
        <SearchInput defaultValue={query.search} placeholder="Title or description" />
        <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
          State
          <select name="state" defaultValue={query.state ?? ""} className="rounded-lg border border-slate-300 px-3 py-2 font-normal">
            <option value="">All</option>
            {Object.entries(PUBLISH_STATES).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
          Category
          <select name="category" defaultValue={query.category ?? ""} className="rounded-lg border border-slate-300 px-3 py-2 font-normal">
            <option value="">All</option>
            <CategoryOptions categories={categories} mainSuffix=" (all)" />
          </select>
        </label>
      </FilterForm>
      <DataTable
        caption="Animations, newest first"
        rows={animations}
        rowKey={(a) => a.id}
        empty="No animations found"
        columns={[
          {
            header: "Animation",
            cell: (a) => (
              <div className="flex items-start gap-3">
                {a.coverImage ? (
                  <ResponsiveImage src={a.coverImage} aspect="16x9" widths={[160]} sizes="80px" alt="" className="h-12 w-20 flex-none rounded object-cover" />
                ) : (
                  <span className="h-12 w-20 flex-none rounded bg-slate-100" />
                )}
                <div>
                  <p className="font-medium">{a.title}</p>
                  <p className="text-slate-600">/{a.slug}</p>
                  {/* The actions sit with the title, the one column always on screen: as a last
                      column they fell off the right edge of the wide table, even at 1280 px. */}
                  <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1">
                    <TextLink to={`/admin/animations/${a.id}`}>
                      Edit<span className="sr-only"> {a.title}</span>
                    </TextLink>
                    <Form method="post">
                      <input type="hidden" name="id" value={a.id} />
                      <button type="submit" name="intent" value={a.isActive ? "unpublish" : "publish"} className="font-medium text-brand-700 hover:underline">
                        {a.isActive ? "Unpublish" : "Publish"}
                      </button>
                    </Form>
                    <ConfirmButton step={deleteStep(a)}>Delete</ConfirmButton>
                  </div>
                </div>
              </div>
            ),
          },
          { header: "Category", cell: (a) => a.categoryName ?? "—" },
          { header: "Price", cell: (a) => formatMoney(a.individualPrice), className: "text-right" },
          { header: "Duration", cell: (a) => formatDuration(a.duration), className: "text-right" },
          { header: "Views", cell: (a) => a.views, className: "text-right" },
          {
            header: "State",
            cell: (a) => (
              <span className="flex flex-col items-start gap-1">
                <Badge tone={STATE_TONES[a.publishState]}>{a.publishStateLabel}</Badge>
                {a.publishWhenReady && !a.isActive ? <span className="text-xs text-slate-600">Publishes when ready</span> : null}
                {/* The media's own trouble (a state says only "Draft" for a failed transcode). */}
                {a.previewJob?.status === "failed" ? <Badge tone={JOB_TONES.failed}>video failed</Badge> : null}
              </span>
            ),
          },
        ]}
      />
      <Pager page={page} hasNext={hasNext} />
    </AdminPage>
  );
}
