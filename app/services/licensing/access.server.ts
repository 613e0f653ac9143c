import { registerCache } from "~/lib/cache-registry.server.ts";
import { prisma } from "~/lib/db.server.ts";
import { Prisma } from "~/generated/prisma/client.ts";
import { getUser } from "../auth/guards.server.ts";
import { keptForCaller } from "../auth/member-cache.server.ts";

// The access rules (docs/architecture.md, "Access rules"), in
// one place. A subscription counts only when status = active and endDate is in the future.

/**
 * The rule as a filter, for every query that counts licences: active and not yet ended.
 * `scope` narrows it (a user, an animation, a type); it cannot loosen it.
 */
export function activeLicenceWhere(now: Date, scope: Prisma.SubscriptionWhereInput = {}): Prisma.SubscriptionWhereInput {
  return { ...scope, status: "active", endDate: { gt: now } };
}

/**
 * A user's own licences that count now: those they bought for themselves. They make the account
 * premium (syncAccountType) and are what the personal billing lists; a practice's are not theirs.
 */
export function activeWhere(userId: string, now: Date): Prisma.SubscriptionWhereInput {
  return activeLicenceWhere(now, { userId, practiceId: null });
}

/**
 * The licences a user holds: their own, and those of the practice they belong to now (decision
 * 030). Membership is read in the same query, so leaving or removal ends access at once.
 */
export function heldWhere(userId: string): Prisma.SubscriptionWhereInput {
  return { OR: [{ userId, practiceId: null }, { practice: { members: { some: { userId } } } }] };
}

/**
 * Still marked active though its end date has passed: no longer counts (activeLicenceWhere), and
 * the hourly sweep has yet to mark it expired.
 */
export function lapsedWhere(now: Date, scope: Prisma.SubscriptionWhereInput = {}): Prisma.SubscriptionWhereInput {
  return { ...scope, status: "active", endDate: { lte: now } };
}

/**
 * The same rules in SQL, for raw queries over a subscription alias (the campaign audiences):
 * `active` counts now; `ended` was held and no longer counts (expired, or lapsed and not yet
 * swept). A canceled or pending row is neither.
 */
export function licenceStateSql(alias: string, state: "active" | "ended") {
  const s = Prisma.raw(`"${alias}"`);
  return state === "active"
    ? Prisma.sql`(${s}.status = 'active' AND ${s}."endDate" > now())`
    : Prisma.sql`(${s}.status = 'expired' OR (${s}.status = 'active' AND ${s}."endDate" <= now()))`;
}

/** heldWhere in SQL: the subscription alias is the user alias's own, or their practice's now. */
export function heldBySql(subscription: string, user: string) {
  const [s, u] = [Prisma.raw(`"${subscription}"`), Prisma.raw(`"${user}"`)];
  return Prisma.sql`((${s}."userId" = ${u}.id AND ${s}."practiceId" IS NULL)
    OR EXISTS (SELECT 1 FROM "PracticeMember" m WHERE m."practiceId" = ${s}."practiceId" AND m."userId" = ${u}.id))`;
}

/** The same rule for a licence row already read. */
export function isActive(licence: { status: string; endDate: Date | null }, now: Date) {
  return licence.status === "active" && licence.endDate !== null && licence.endDate > now;
}

export type ActiveSubscription = {
  id: string;
  type: "global" | "category" | "individual";
  animationId: string | null;
  categoryId: string | null;
  endDate: Date | null;
};

export type Access = {
  /** Who, when signed in: media URLs are signed for this member (media-urls.server.ts). */
  userId?: string;
  signedIn: boolean;
  isAdmin: boolean;
  accountType: "free" | "premium" | null;
  subscriptions: ActiveSubscription[];
};

/**
 * The animation fields the rules need: its id, its category and that category's parent, and
 * whether it is published. Unpublished (a draft, or withdrawn), only a licence that names it
 * covers it (decision 032): premium and category licences cover what the catalogue publishes.
 * Left out, it is taken as published.
 */
export type AccessTarget = { id: string; categoryId: string | null; category?: { parentId: string | null } | null; isActive?: boolean };

const published = (animation: AccessTarget) => animation.isActive !== false;

export const ANONYMOUS: Access = { signedIn: false, isAdmin: false, accountType: null, subscriptions: [] };

type AccessUser = { id: string; role: "user" | "admin"; accountType: "free" | "premium" };

/** Loads what decides a user's rights in one query; pass the result to the checks below. */
export async function getAccess(user: AccessUser | null, now = new Date()): Promise<Access> {
  if (!user) return ANONYMOUS;
  return accessOf(user, await activeSubscriptions(user.id, now));
}

function activeSubscriptions(userId: string, now: Date): Promise<ActiveSubscription[]> {
  return prisma.subscription.findMany({
    where: activeLicenceWhere(now, heldWhere(userId)),
    select: { id: true, type: true, animationId: true, categoryId: true, endDate: true },
  });
}

function accessOf(user: AccessUser, subscriptions: ActiveSubscription[]): Access {
  return { userId: user.id, signedIn: true, isAdmin: user.role === "admin", accountType: user.accountType, subscriptions };
}

const viewerAccess = new WeakMap<Request, Promise<Access>>();

/**
 * The viewer's rights for what a page shows, once per request. Signed in, the licences come from
 * the caller's kept rows (member-cache.server.ts) and each is held to its end date on every
 * request. Selling and serving files read them afresh (getAccess).
 */
export function getViewerAccess(request: Request): Promise<Access> {
  let pending = viewerAccess.get(request);
  if (!pending) {
    pending = getUser(request).then(async (user) => {
      if (!user) return ANONYMOUS;
      const now = new Date();
      const kept = await keptForCaller(`access:${user.id}`, () => activeSubscriptions(user.id, now));
      return accessOf(
        user,
        kept.filter((s) => s.endDate !== null && s.endDate > now),
      );
    });
    viewerAccess.set(request, pending);
  }
  return pending;
}

export function hasGlobalAccess(access: Access) {
  if (!access.signedIn) return false;
  return access.accountType === "premium" || access.subscriptions.some((s) => s.type === "global");
}

export function hasIndividualLicence(access: Access, animation: AccessTarget) {
  return access.subscriptions.some((s) => s.type === "individual" && s.animationId === animation.id);
}

export function hasCategoryLicence(access: Access, animation: AccessTarget) {
  if (!published(animation)) return false;
  const categories = [animation.categoryId, animation.category?.parentId].filter(Boolean);
  return access.subscriptions.some((s) => s.type === "category" && s.categoryId !== null && categories.includes(s.categoryId));
}

/** The animations a category licence covers: those of its category and of its subcategories. */
export function coveredByCategoryWhere(categoryId: string): Prisma.AnimationWhereInput {
  return { OR: [{ categoryId }, { category: { parentId: categoryId } }] };
}

/** Full video: global access, or a licence for the animation or its category. Admins too. */
export function canWatch(access: Access, animation: AccessTarget) {
  return (
    access.isAdmin || (hasGlobalAccess(access) && published(animation)) || hasIndividualLicence(access, animation) || hasCategoryLicence(access, animation)
  );
}

/** Download file: an individual or category licence; premium alone gives none. Admins too. */
export function canDownload(access: Access, animation: AccessTarget) {
  return access.isAdmin || hasIndividualLicence(access, animation) || hasCategoryLicence(access, animation);
}

/**
 * The licence a download is made under, recorded with it: the one covering the animation that
 * lasts longest (an individual licence wins a tie). Null without one (an admin).
 */
export function downloadLicence(access: Access, animation: AccessTarget): ActiveSubscription | null {
  const categories = [animation.categoryId, animation.category?.parentId].filter(Boolean);
  const covering = access.subscriptions.filter(
    (s) => (s.type === "individual" && s.animationId === animation.id) || (s.type === "category" && s.categoryId !== null && categories.includes(s.categoryId)),
  );
  const end = (s: ActiveSubscription) => s.endDate?.getTime() ?? 0;
  return covering.sort((a, b) => end(b) - end(a) || Number(b.type === "individual") - Number(a.type === "individual"))[0] ?? null;
}

/** A licence as sold: for one animation, or for one category (as chosen, not its parent's). */
export type LicenceItem = { type: "individual"; animationId: string } | { type: "category"; categoryId: string };

/** Whether the viewer already holds this very licence (the checkout page does not sell it twice). */
export function holdsLicence(access: Access, item: LicenceItem) {
  return access.subscriptions.some((s) =>
    item.type === "individual" ? s.type === "individual" && s.animationId === item.animationId : s.type === "category" && s.categoryId === item.categoryId,
  );
}

// ---- objects in storage (/objects/uploads/{id}) ----

/**
 * The user fields the object rules read. `access` may come pre-loaded (the media router keeps
 * it for a moment across the range requests of one player); otherwise it is loaded here.
 */
export type ObjectViewer = { id: string; role: "user" | "admin"; accountType: "free" | "premium"; access?: Access } | null;

export type ObjectAccessDecision =
  /** Cover image, preview, doctor photo, category thumbnail, active animation's caption, practice logo: anyone. */
  | { allowed: true; visibility: "public" }
  /** A full video or download file for someone with the right, or anything for an admin. */
  | { allowed: true; visibility: "private"; download?: { slug: string } }
  /** 401 when signed out, 403 otherwise: the same whether or not the object exists. */
  | { allowed: false; status: 401 | 403 };

type GuardedAnimation = AccessTarget & { slug: string };
type ObjectAttachments = {
  /** Attached somewhere as a cover, preview, doctor photo, category thumbnail or active caption. */
  public: boolean;
  /** Attached as a full video (watch right) or download file (download right). */
  guarded: { right: "watch" | "download"; animation: GuardedAnimation }[];
};

/**
 * What a path is attached to is kept for a few seconds: a video player sends many range
 * requests for one file, and attachments change only when an admin edits. Staleness is
 * harmless both ways: a path that just became protected was public (and cached by browsers
 * for a year) anyway; one that just became public is refused a few seconds longer.
 */
const ATTACHMENTS_TTL_MS = 10_000;
const ATTACHMENTS_CACHE_MAX = 10_000;
const attachmentsCache = new Map<string, { expires: number; value: ObjectAttachments }>();

// Emptied at any write to what objects are attached to (cache-registry.server.ts).
registerCache("objectAttachments", () => attachmentsCache.clear());

async function findObjectAttachments(objectPath: string): Promise<ObjectAttachments> {
  const now = Date.now();
  const cached = attachmentsCache.get(objectPath);
  if (cached && cached.expires > now) return cached.value;
  const [animations, doctor, category, caption, practice] = await Promise.all([
    prisma.animation.findMany({
      where: {
        OR: [{ coverImage: objectPath }, { previewVideo: objectPath }, { fullVideo: objectPath }, { downloadFile: objectPath }],
      },
      select: {
        id: true,
        slug: true,
        isActive: true,
        categoryId: true,
        category: { select: { parentId: true } },
        coverImage: true,
        previewVideo: true,
        fullVideo: true,
        downloadFile: true,
      },
    }),
    prisma.doctor.findFirst({ where: { photo: objectPath }, select: { id: true } }),
    prisma.category.findFirst({ where: { thumbnail: objectPath }, select: { id: true } }),
    // A caption track of a published animation is public (its transcript is on the public page);
    // of an unpublished one it goes with the video: to whoever may still watch it (decision 032).
    prisma.animationCaption.findFirst({
      where: { path: objectPath },
      select: { animation: { select: { id: true, slug: true, isActive: true, categoryId: true, category: { select: { parentId: true } } } } },
    }),
    // A practice's logo is on its patient links, which need no account.
    prisma.practice.findFirst({ where: { logo: objectPath }, select: { id: true } }),
  ]);
  const value: ObjectAttachments = {
    public:
      animations.some((a) => a.coverImage === objectPath || a.previewVideo === objectPath) ||
      doctor !== null ||
      category !== null ||
      caption?.animation.isActive === true ||
      practice !== null,
    guarded: [
      ...animations.flatMap(({ id, slug, isActive, categoryId, category, fullVideo, downloadFile }) => {
        const animation = { id, slug, isActive, categoryId, category };
        return [
          ...(fullVideo === objectPath ? [{ right: "watch" as const, animation }] : []),
          ...(downloadFile === objectPath ? [{ right: "download" as const, animation }] : []),
        ];
      }),
      ...(caption && !caption.animation.isActive ? [{ right: "watch" as const, animation: caption.animation }] : []),
    ],
  };
  if (attachmentsCache.size >= ATTACHMENTS_CACHE_MAX) attachmentsCache.delete(attachmentsCache.keys().next().value!);
  attachmentsCache.set(objectPath, { expires: now + ATTACHMENTS_TTL_MS, value });
  return value;
}

/**
 * What a stored object is, to whom. Finds what the path is attached to (one query set), then:
 * covers, previews, doctor photos, category thumbnails and the captions of published animations
 * are public; an animation's full video, and an unpublished animation's captions, need `canWatch`; its download file needs
 * `canDownload` (and is sent as an attachment); anything else, including an object that does not exist, is for admins only.
 * If a path is both public and protected, protected wins. Refusals never reveal existence.
 * The viewer may be a loader, so that public objects need no user lookup at all.
 */
export async function decideObjectAccess(viewer: ObjectViewer | (() => Promise<ObjectViewer>), objectPath: string): Promise<ObjectAccessDecision> {
  const { public: isPublic, guarded } = await findObjectAttachments(objectPath);
  if (isPublic && guarded.length === 0) return { allowed: true, visibility: "public" };

  const user = typeof viewer === "function" ? await viewer() : viewer;
  if (!user) return { allowed: false, status: 401 };
  if (user.role === "admin") {
    const asDownload = guarded.length > 0 && guarded.every((g) => g.right === "download");
    return { allowed: true, visibility: "private", download: asDownload ? { slug: guarded[0]!.animation.slug } : undefined };
  }
  if (guarded.length === 0) return { allowed: false, status: 403 };
  // The same file attached twice: one right to its bytes is enough.
  const access = user.access ?? (await getAccess(user));
  const granted = guarded.find((g) => (g.right === "watch" ? canWatch(access, g.animation) : canDownload(access, g.animation)));
  if (!granted) return { allowed: false, status: 403 };
  return {
    allowed: true,
    visibility: "private",
    download: granted.right === "download" ? { slug: granted.animation.slug } : undefined,
  };
}
