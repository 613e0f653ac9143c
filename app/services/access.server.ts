import { prisma } from "~/lib/db.server.ts";

// The access rules (ARCHITECTURE.md "Access rules"; spec public-and-user-side.md section 4), in
// one place. A subscription counts only when status = active and endDate is in the future.

export type ActiveSubscription = {
  id: string;
  type: "global" | "category" | "individual";
  animationId: string | null;
  categoryId: string | null;
  endDate: Date | null;
};

export type Access = {
  signedIn: boolean;
  isAdmin: boolean;
  accountType: "free" | "premium" | null;
  subscriptions: ActiveSubscription[];
};

/** The animation fields the rules need: its id, its category and that category's parent. */
export type AccessTarget = { id: string; categoryId: string | null; category?: { parentId: string | null } | null };

export const ANONYMOUS: Access = { signedIn: false, isAdmin: false, accountType: null, subscriptions: [] };

/** Loads what decides a user's rights in one query; pass the result to the checks below. */
export async function getAccess(
  user: { id: string; role: "user" | "admin"; accountType: "free" | "premium" } | null,
  now = new Date(),
): Promise<Access> {
  if (!user) return ANONYMOUS;
  const subscriptions = await prisma.subscription.findMany({
    where: { userId: user.id, status: "active", endDate: { gt: now } },
    select: { id: true, type: true, animationId: true, categoryId: true, endDate: true },
  });
  return { signedIn: true, isAdmin: user.role === "admin", accountType: user.accountType, subscriptions };
}

export function hasGlobalAccess(access: Access) {
  if (!access.signedIn) return false;
  return access.accountType === "premium" || access.subscriptions.some((s) => s.type === "global");
}

export function hasIndividualLicence(access: Access, animation: AccessTarget) {
  return access.subscriptions.some((s) => s.type === "individual" && s.animationId === animation.id);
}

export function hasCategoryLicence(access: Access, animation: AccessTarget) {
  const categories = [animation.categoryId, animation.category?.parentId].filter(Boolean);
  return access.subscriptions.some((s) => s.type === "category" && s.categoryId !== null && categories.includes(s.categoryId));
}

/** Full video: global access, or a licence for the animation or its category. Admins too. */
export function canWatch(access: Access, animation: AccessTarget) {
  return access.isAdmin || hasGlobalAccess(access) || hasIndividualLicence(access, animation) || hasCategoryLicence(access, animation);
}

/** Download file: an individual or category licence; premium alone gives none. Admins too. */
export function canDownload(access: Access, animation: AccessTarget) {
  return access.isAdmin || hasIndividualLicence(access, animation) || hasCategoryLicence(access, animation);
}
