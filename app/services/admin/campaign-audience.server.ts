import { prisma } from "~/lib/db.server.ts";
import { ServiceError } from "~/lib/errors.server.ts";
import { Prisma } from "~/generated/prisma/client.ts";
import { heldBySql, licenceStateSql } from "~/services/licensing/access.server.ts";
import { type Audience, type AudienceFilters, type CampaignKind, describeAudience, type UnsubscribeKind } from "~/validation/admin-email.ts";

// Who a campaign reaches: the one rule that the campaign form's count, POST /api/emails/bulk's
// count and the campaign's start (which writes the recipients the job sends to) all read, so the
// number an admin confirms is the number of messages queued.
//
// A target group (all, premium, free, expired) or chosen ids, ANDed with each filter given:
// holders of a category's licence, holders of an animation's individual licence (active, expired
// or either), a signup date range. Reachable recipients are then those not blocked and not opted
// out of the campaign's kind of mail (their notification preferences).

export const NO_RECIPIENTS = "No recipients: choose a target group or enter user ids";
export const UNKNOWN_CATEGORY = "Choose a category from the list";
export const UNKNOWN_ANIMATION = "Choose an animation from the list";

/** The notification preference each kind of mail honours, and its default for users without a row. */
export const PREFERENCE: Record<UnsubscribeKind, { column: string; byDefault: boolean }> = {
  newsletter: { column: "emailNewsletter", byDefault: true },
  promotions: { column: "emailPromotions", byDefault: false },
  new_animations: { column: "emailNewAnimations", byDefault: true },
  renewal_reminders: { column: "emailRenewalReminders", byDefault: true },
};

export type AudienceRule = { group: Audience; userIds?: string[]; filters?: AudienceFilters };

/** The rule of an input: chosen ids win over a group (the form and API layouts). */
export function audienceOf(input: { userIds?: string[]; targetGroup?: Exclude<Audience, "users">; filters?: AudienceFilters }): AudienceRule {
  return { group: input.userIds ? "users" : (input.targetGroup ?? "all"), userIds: input.userIds, filters: input.filters };
}

function groupSql(group: Audience, userIds: string[] | undefined) {
  switch (group) {
    case "premium":
      return Prisma.sql`u."accountType" = 'premium'`;
    case "free":
      return Prisma.sql`u."accountType" = 'free'`;
    case "expired":
      // Had a subscription that ended, and holds none that is running now.
      return Prisma.sql`EXISTS (SELECT 1 FROM "Subscription" s WHERE s."userId" = u.id AND (s.status = 'expired' OR s."endDate" <= now()))
        AND NOT EXISTS (SELECT 1 FROM "Subscription" s WHERE s."userId" = u.id AND ${licenceStateSql("s", "active")})`;
    case "users":
      return Prisma.sql`u.id = ANY(${userIds ?? []}::uuid[])`;
    default:
      return Prisma.sql`TRUE`;
  }
}

/**
 * Holds (held) a licence of the item: `active` counts now; `expired` ended and none for the same
 * item counts now (a renewed licence is not an expired one); `any` is either.
 */
function holdsSql(item: Prisma.Sql, status: AudienceFilters["licenceStatus"]) {
  const held = (state: "active" | "ended") =>
    Prisma.sql`EXISTS (SELECT 1 FROM "Subscription" s WHERE ${item} AND ${heldBySql("s", "u")} AND ${licenceStateSql("s", state)})`;
  if (status === "active") return held("active");
  if (status === "expired") return Prisma.sql`(${held("ended")} AND NOT ${held("active")})`;
  return Prisma.sql`(${held("active")} OR ${held("ended")})`;
}

/** The audience as a condition on a user aliased `u`. */
export function audienceSql({ group, userIds, filters }: AudienceRule) {
  const parts = [groupSql(group, userIds)];
  if (filters?.categoryId) parts.push(holdsSql(Prisma.sql`s.type = 'category' AND s."categoryId" = ${filters.categoryId}::uuid`, filters.licenceStatus));
  if (filters?.animationId) parts.push(holdsSql(Prisma.sql`s.type = 'individual' AND s."animationId" = ${filters.animationId}::uuid`, filters.licenceStatus));
  // Whole days in UTC, the end day included.
  if (filters?.signedUpFrom) parts.push(Prisma.sql`u."createdAt" >= ${filters.signedUpFrom}::date`);
  if (filters?.signedUpTo) parts.push(Prisma.sql`u."createdAt" < ${filters.signedUpTo}::date + 1`);
  return Prisma.join(parts, " AND ");
}

/** Whether a user (alias u, preferences p) may receive this kind of mail now. */
export function reachableSql(kind: UnsubscribeKind) {
  const { column, byDefault } = PREFERENCE[kind];
  return Prisma.sql`u."isActive" AND COALESCE(p.${Prisma.raw(`"${column}"`)}, ${byDefault})
    AND NOT EXISTS (SELECT 1 FROM "BlockedEmail" b WHERE b."isActive" AND lower(b.email) = lower(u.email))`;
}

/** The audience's users with whether each is reachable (`ok`): the rows a campaign's start inserts. */
export function audienceRowsSql(rule: AudienceRule, kind: CampaignKind) {
  return Prisma.sql`SELECT u.id, u.email, ${reachableSql(kind)} AS ok
    FROM "User" u LEFT JOIN "NotificationPreferences" p ON p."userId" = u.id
    WHERE ${audienceSql(rule)}`;
}

export type AudienceCount = { recipients: number; skipped: number };

/** How many a campaign to this audience would be sent to now, and how many it would skip. */
export async function countAudience(rule: AudienceRule, kind: CampaignKind, db: Pick<Prisma.TransactionClient, "$queryRaw"> = prisma): Promise<AudienceCount> {
  const [row] = await db.$queryRaw<{ recipients: bigint; audience: bigint }[]>`
    WITH audience AS (${audienceRowsSql(rule, kind)})
    SELECT count(*) FILTER (WHERE ok) AS recipients, count(*) AS audience FROM audience`;
  const recipients = Number(row?.recipients ?? 0);
  return { recipients, skipped: Number(row?.audience ?? 0) - recipients };
}

/** The filters as a campaign keeps them: ids with the names they had, so the record reads the same later. */
export type StoredFilters = AudienceFilters & { categoryName?: string; animationTitle?: string };

/** The filters with their items' names, or a 400 on the field when an item does not exist. */
export async function resolveFilters(filters: AudienceFilters | undefined): Promise<StoredFilters | null> {
  if (!filters || !(filters.categoryId || filters.animationId || filters.signedUpFrom || filters.signedUpTo)) return null;
  const [category, animation] = await Promise.all([
    filters.categoryId ? prisma.category.findUnique({ where: { id: filters.categoryId }, select: { name: true } }) : null,
    filters.animationId ? prisma.animation.findUnique({ where: { id: filters.animationId }, select: { title: true } }) : null,
  ]);
  if (filters.categoryId && !category) throw new ServiceError(UNKNOWN_CATEGORY, 400, "licenceCategoryId");
  if (filters.animationId && !animation) throw new ServiceError(UNKNOWN_ANIMATION, 400, "licenceAnimationId");
  return { ...filters, categoryName: category?.name, animationTitle: animation?.title };
}

/** What the campaign form offers to pick from: every category (sub categories under their main one) and animation. */
export async function audienceChoices() {
  const [categories, animations] = await Promise.all([
    prisma.category.findMany({ select: { id: true, name: true, parent: { select: { name: true } } }, orderBy: [{ name: "asc" }] }),
    prisma.animation.findMany({ select: { id: true, title: true }, orderBy: { title: "asc" } }),
  ]);
  return {
    categories: categories
      .map((c) => ({ value: c.id, label: c.parent ? `${c.parent.name} › ${c.name}` : c.name }))
      .sort((a, b) => a.label.localeCompare(b.label, "en")),
    animations: animations.map((a) => ({ value: a.id, label: a.title })),
  };
}

/**
 * The count an admin sees before confirming a campaign (the form's Count Recipients, the API's
 * countOnly): the same rule and the same reachability as the start, with unknown items refused.
 */
export async function countRecipients(input: {
  userIds?: string[];
  targetGroup?: Exclude<Audience, "users">;
  filters?: AudienceFilters;
  kind: CampaignKind;
}): Promise<AudienceCount & { audience: string }> {
  if (!input.userIds && !input.targetGroup) throw new ServiceError(NO_RECIPIENTS, 400, "targetGroup");
  const rule = audienceOf(input);
  const filters = await resolveFilters(input.filters);
  return { ...(await countAudience(rule, input.kind)), audience: describeAudience(rule.group, filters) };
}
