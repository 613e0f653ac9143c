import { prisma, uniqueViolation } from "~/lib/db.server.ts";
import { conflict, notFound, ServiceError } from "~/lib/errors.server.ts";
import { confirmChangedUploads } from "~/lib/upload-form.server.ts";
import type { Prisma } from "~/generated/prisma/client.ts";
import { UUID_RE } from "~/validation/account.ts";
import { animationSlugFromTitle, type AnimationInput } from "~/validation/admin-catalogue.ts";
import { type Actor, recordAudit } from "../admin/audit.server.ts";
import { activeLicenceWhere } from "../licensing/access.server.ts";
import { recordMediaFacts } from "../media/media-facts.server.ts";
import { queueTranscode, retryTranscode } from "../media/media-jobs.server.ts";
import { NOT_FOUND } from "./categories.server.ts";
import { assertReadyToPublish, getPublishFacts, idsInPublishState, PUBLISH_STATES, publishIfReady, type PublishState } from "./publishing.server.ts";

// Animations in the back office (/admin/animations and its /api calls): the paged list, create,
// edit, publish, delete, and the preview job. A new or replaced full video gets a new 10-second
// preview cut by the media worker.

export const ANIMATIONS_PAGE_SIZE = 20;
export const SLUG_TAKEN = "This slug is already in use";
export const HAS_ACTIVE_LICENCES = "This animation has active licenses. Unpublish it instead.";

const MEDIA_FIELDS = { coverImage: "cover", fullVideo: "video", downloadFile: "download" } as const;

const listSelect = {
  id: true,
  title: true,
  slug: true,
  coverImage: true,
  individualPrice: true,
  duration: true,
  views: true,
  isActive: true,
  previewVideo: true,
  mediaSetId: true,
  publishWhenReady: true,
  category: { select: { name: true } },
  mediaJobs: { orderBy: { createdAt: "desc" }, take: 1, select: { status: true, error: true } },
} satisfies Prisma.AnimationSelect;

export async function listAdminAnimations({ search, category, state, page }: { search?: string; category?: string; state?: PublishState; page: number }) {
  const term = search?.trim().toLowerCase();
  const now = new Date();
  const where: Prisma.AnimationWhereInput = {
    // The state is derived, never stored (decision 032): its filter is the ids in that state.
    ...(state ? { id: { in: await idsInPublishState(state, now) } } : {}),
    // searchText is lower(title + description), trigram-indexed (migration 20261121190000).
    ...(term ? { searchText: { contains: term } } : {}),
    // A main category lists its sub-categories' animations too.
    ...(category ? { OR: [{ categoryId: category }, { category: { parentId: category } }] } : {}),
  };
  const rows = await prisma.animation.findMany({
    where,
    select: listSelect,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip: (page - 1) * ANIMATIONS_PAGE_SIZE,
    take: ANIMATIONS_PAGE_SIZE + 1,
  });
  const shown = rows.slice(0, ANIMATIONS_PAGE_SIZE);
  const facts = await getPublishFacts(
    shown.map((row) => row.id),
    { now },
  );
  return {
    animations: shown.map(({ category: cat, mediaJobs, individualPrice, ...row }) => {
      const publishState = facts.get(row.id)?.state ?? (row.isActive ? "published" : "draft");
      return {
        ...row,
        individualPrice: Number(individualPrice),
        categoryName: cat?.name ?? null,
        previewJob: mediaJobs[0] ?? null,
        publishState,
        publishStateLabel: PUBLISH_STATES[publishState],
      };
    }),
    page,
    hasNext: rows.length > ANIMATIONS_PAGE_SIZE,
  };
}

const detailSelect = {
  id: true,
  title: true,
  slug: true,
  description: true,
  coverImage: true,
  previewVideo: true,
  fullVideo: true,
  downloadFile: true,
  individualPrice: true,
  duration: true,
  categoryId: true,
  views: true,
  isActive: true,
  publishWhenReady: true,
  durationProbed: true,
  videoWidth: true,
  videoHeight: true,
  createdAt: true,
  updatedAt: true,
  doctors: { select: { doctorId: true } },
} satisfies Prisma.AnimationSelect;

type DetailRow = Prisma.AnimationGetPayload<{ select: typeof detailSelect }>;

/** The admin shape (doctors as {id} on read, doctorIds on write). */
function toAdminAnimation({ doctors, individualPrice, ...row }: DetailRow) {
  const doctorIds = doctors.map((d) => d.doctorId);
  return { ...row, individualPrice: Number(individualPrice), doctorIds, doctors: doctorIds.map((id) => ({ id })) };
}

export type AdminAnimation = ReturnType<typeof toAdminAnimation>;

export async function getAdminAnimation(id: string) {
  if (!UUID_RE.test(id)) return null;
  const row = await prisma.animation.findUnique({ where: { id }, select: detailSelect });
  return row ? toAdminAnimation(row) : null;
}

/** What the form's selects offer: categories (mains with their subs) and doctors. */
/** Main categories with their subcategories, in the catalogue's order: the category pickers. */
export async function getCategoryTree() {
  const categories = await prisma.category.findMany({ select: { id: true, name: true, parentId: true }, orderBy: [{ sortOrder: "asc" }, { name: "asc" }] });
  return categories.filter((c) => !c.parentId).map((main) => ({ ...main, subcategories: categories.filter((c) => c.parentId === main.id) }));
}

export async function getAnimationFormOptions() {
  const [categories, doctors] = await Promise.all([
    getCategoryTree(),
    prisma.doctor.findMany({ select: { id: true, name: true, specialty: true, isActive: true }, orderBy: { name: "asc" }, take: 500 }),
  ]);
  return { categories, doctors };
}

async function checkedValues(input: AnimationInput) {
  const [category, doctors] = await Promise.all([
    prisma.category.count({ where: { id: input.categoryId } }),
    input.doctorIds.length ? prisma.doctor.count({ where: { id: { in: input.doctorIds } } }) : 0,
  ]);
  if (!category) throw new ServiceError("Category is required", 400, "categoryId");
  if (doctors !== new Set(input.doctorIds).size) throw new ServiceError("Unknown doctor", 400, "doctorIds");
  const slug = input.slug ?? animationSlugFromTitle(input.title);
  if (!slug) throw new ServiceError("Enter a slug: the title has no letters or digits to make one from", 400, "slug");
  return {
    title: input.title,
    slug,
    description: input.description,
    coverImage: input.coverImage,
    fullVideo: input.fullVideo,
    downloadFile: input.downloadFile,
    individualPrice: input.individualPrice,
    duration: input.duration,
    categoryId: input.categoryId,
    publishWhenReady: input.publishWhenReady,
  };
}

function slugTaken(error: unknown): never {
  if (uniqueViolation(error)) throw conflict(SLUG_TAKEN, "slug");
  throw error;
}

async function afterWrite(animationId: string, changed: { video: boolean; download: boolean }) {
  await recordMediaFacts(animationId, changed);
  // A new master (or one without a set yet) is transcoded: ladder, preview, downloads, storyboard.
  return queueTranscode(animationId);
}

/**
 * A new animation is always a draft (decision 032): its video has not been transcoded and it has
 * no medical review yet. "Publish when ready" publishes it once both are done.
 */
export async function createAnimation(actor: Actor, input: AnimationInput, confirmPriceChange: () => Promise<unknown>) {
  const values = await checkedValues(input);
  // A new animation is put on sale at its price: a price written, as an edit's new price is.
  await confirmPriceChange();
  await confirmChangedUploads(values, {}, MEDIA_FIELDS);
  const isActive = false;
  const created = await prisma
    .$transaction(async (tx) => {
      const row = await tx.animation.create({
        data: { ...values, isActive, doctors: { create: [...new Set(input.doctorIds)].map((doctorId) => ({ doctorId })) } },
        select: detailSelect,
      });
      await recordAudit(tx, actor, {
        action: "animation.create",
        entityType: "animation",
        entityId: row.id,
        summary: `Created animation “${row.title}”`,
        after: { ...values, isActive, doctorIds: input.doctorIds },
      });
      return row;
    })
    .catch(slugTaken);
  await afterWrite(created.id, { video: Boolean(values.fullVideo), download: Boolean(values.downloadFile) });
  return toAdminAnimation(created);
}

/**
 * `confirmPriceChange` runs before anything is written when the price changes: a price is
 * guarded by step-up (decision 019), the form's other fields are not, so an edit that keeps the
 * price does not ask for a code.
 */
export async function updateAnimation(actor: Actor, id: string, input: AnimationInput, confirmPriceChange: () => Promise<unknown>) {
  const current = await getAdminAnimation(id);
  if (!current) throw notFound(NOT_FOUND.animation);
  if (Number(input.individualPrice).toFixed(2) !== current.individualPrice.toFixed(2)) await confirmPriceChange();
  const values = await checkedValues({ ...input, slug: input.slug ?? current.slug });
  await confirmChangedUploads(values, current, MEDIA_FIELDS);
  const newVideo = values.fullVideo !== current.fullVideo;
  const newDownload = values.downloadFile !== current.downloadFile;
  // A duration read from the video is the video's: the form shows it read-only, and a new
  // master is probed after the save (recordMediaFacts).
  if (current.durationProbed && !newVideo) values.duration = current.duration;
  // Publishing is done: the box applies to drafts only.
  if (current.isActive) values.publishWhenReady = false;
  const updated = await prisma
    .$transaction(async (tx) => {
      await tx.animationDoctor.deleteMany({ where: { animationId: id, doctorId: { notIn: input.doctorIds } } });
      const row = await tx.animation.update({
        where: { id },
        // The old preview was cut from the old video: a new one is queued after commit.
        data: {
          ...values,
          ...(newVideo ? { previewVideo: null, videoWidth: null, videoHeight: null, durationProbed: false } : {}),
          ...(newDownload ? { downloadFormats: [] } : {}),
          doctors: {
            connectOrCreate: [...new Set(input.doctorIds)].map((doctorId) => ({
              where: { animationId_doctorId: { animationId: id, doctorId } },
              create: { doctorId },
            })),
          },
        },
        select: detailSelect,
      });
      const { title, slug, description, coverImage, fullVideo, downloadFile, individualPrice, duration, categoryId, doctorIds, publishWhenReady } = current;
      await recordAudit(tx, actor, {
        action: "animation.update",
        entityType: "animation",
        entityId: id,
        summary: `Updated animation “${row.title}”`,
        before: {
          title,
          slug,
          description,
          coverImage,
          fullVideo,
          downloadFile,
          individualPrice: individualPrice.toFixed(2),
          duration,
          categoryId,
          publishWhenReady,
          doctorIds: [...doctorIds].sort(),
        },
        after: { ...values, individualPrice: Number(values.individualPrice).toFixed(2), doctorIds: [...new Set(input.doctorIds)].sort() },
      });
      // Asked to publish when ready, and ready already (its ladder and review were done before).
      return (await publishIfReady(tx, id)) ? { ...row, isActive: true, publishWhenReady: false } : row;
    })
    .catch(slugTaken);
  await afterWrite(id, { video: newVideo, download: newDownload });
  return toAdminAnimation(updated);
}

/**
 * Publish (isActive true: public) or unpublish (hidden from the catalogue, search and sitemaps;
 * licences that name it keep working, decision 032). Publishing is refused (409, naming what is
 * missing) until its media ladder is done and, while require_medical_review is on, it has a
 * current medical review.
 */
export async function setAnimationPublished(actor: Actor, id: string, published: boolean) {
  const current = await getAdminAnimation(id);
  if (!current) throw notFound(NOT_FOUND.animation);
  if (current.isActive === published) return current;
  await prisma.$transaction(async (tx) => {
    // Checked under the row's lock: a new master saved meanwhile cannot slip past the check.
    await tx.$queryRaw`SELECT id FROM "Animation" WHERE id = ${id}::uuid FOR UPDATE`;
    if (published) await assertReadyToPublish(tx, current);
    await tx.animation.update({ where: { id }, data: { isActive: published, publishWhenReady: false } });
    await recordAudit(tx, actor, {
      action: published ? "animation.publish" : "animation.unpublish",
      entityType: "animation",
      entityId: id,
      summary: `${published ? "Published" : "Unpublished"} animation “${current.title}”`,
      before: { isActive: current.isActive },
      after: { isActive: published },
    });
  });
  return { ...current, isActive: published, publishWhenReady: false };
}

/**
 * Deletes an animation no member holds an active licence for (decision 009: their library must
 * not lose it; unpublishing hides it instead). Doctor links, preview jobs and captions go with
 * it; old licences, checkouts and misuse reports keep their rows without it (SetNull).
 */
export async function deleteAnimation(actor: Actor, id: string, now = new Date()) {
  const current = await getAdminAnimation(id);
  if (!current) throw notFound(NOT_FOUND.animation);
  await prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM "Animation" WHERE id = ${id}::uuid FOR UPDATE`;
    const licences = await tx.subscription.count({ where: activeLicenceWhere(now, { animationId: id }) });
    if (licences > 0) throw conflict(HAS_ACTIVE_LICENCES);
    await tx.animation.delete({ where: { id } });
    await recordAudit(tx, actor, {
      action: "animation.delete",
      entityType: "animation",
      entityId: id,
      summary: `Deleted animation “${current.title}”`,
      before: { title: current.title, slug: current.slug, categoryId: current.categoryId, isActive: current.isActive },
    });
  });
  return current;
}

/**
 * The admin's Retry: a failed transcode of the current master runs again (resuming after its
 * last finished step where its work folder is still there), or one is queued if none exists.
 */
export async function retryMedia(actor: Actor, id: string) {
  const current = await getAdminAnimation(id);
  if (!current) throw notFound(NOT_FOUND.animation);
  if (!current.fullVideo) throw new ServiceError("Upload a full video first", 400);
  const job = (await retryTranscode(id)) ?? (await queueTranscode(id));
  await prisma.$transaction(async (tx) => {
    await recordAudit(tx, actor, {
      action: "animation.media_retry",
      entityType: "animation",
      entityId: id,
      summary: `Retried the renditions of “${current.title}”`,
    });
  });
  return job;
}
