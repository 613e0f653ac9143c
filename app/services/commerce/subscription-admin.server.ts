import { prisma } from "~/lib/db.server.ts";
import type { Prisma } from "~/generated/prisma/client.ts";
import { UUID_RE } from "~/validation/account.ts";
import type { SubscriptionListQuery } from "~/validation/admin-subscriptions.ts";
import { memberMatches } from "../admin/user-admin.server.ts";

// The admin list of subscriptions (/admin/subscriptions and its /api call): search over the
// member, filters by status and type, newest first, one row more than the page for the pager.
// Cancel and reactivate are in subscriptions.server.ts (one owner of the lifecycle).

const adminRowSelect = {
  id: true,
  type: true,
  status: true,
  price: true,
  startDate: true,
  endDate: true,
  createdAt: true,
  nextRenewalAttemptAt: true,
  endedAfterFailedPayments: true,
  user: { select: { id: true, username: true, firstName: true, lastName: true, email: true } },
  category: { select: { name: true } },
  animation: { select: { title: true } },
} satisfies Prisma.SubscriptionSelect;

type AdminRow = Prisma.SubscriptionGetPayload<{ select: typeof adminRowSelect }>;

/** The admin subscription row of the /api contract. */
function toAdminRow(row: AdminRow) {
  return {
    id: row.id,
    userId: row.user.id,
    username: row.user.username,
    firstName: row.user.firstName,
    lastName: row.user.lastName,
    userEmail: row.user.email,
    type: row.type,
    categoryName: row.category?.name ?? null,
    animationTitle: row.animation?.title ?? null,
    status: row.status,
    price: Number(row.price),
    startDate: row.startDate,
    endDate: row.endDate,
    paymentRetryAt: row.nextRenewalAttemptAt,
    endedAfterFailedPayments: row.endedAfterFailedPayments,
  };
}

export type AdminSubscriptionRow = ReturnType<typeof toAdminRow>;

function listWhere({ search, status, type }: SubscriptionListQuery): Prisma.SubscriptionWhereInput {
  const term = search?.trim();
  const contains = term ? { contains: term, mode: "insensitive" as const } : null;
  return {
    ...(status ? { status } : {}),
    ...(type ? { type } : {}),
    ...(contains
      ? {
          OR: [
            { user: memberMatches(term!) },
            { category: { name: contains } },
            { animation: { title: contains } },
            ...(UUID_RE.test(term!) ? [{ id: term! }] : []),
          ],
        }
      : {}),
  };
}

export async function listAdminSubscriptions(query: SubscriptionListQuery) {
  const rows = await prisma.subscription.findMany({
    where: listWhere(query),
    select: adminRowSelect,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip: (query.page - 1) * query.limit,
    take: query.limit + 1,
  });
  return { subscriptions: rows.slice(0, query.limit).map(toAdminRow), page: query.page, hasNext: rows.length > query.limit };
}

export async function getAdminSubscription(id: string) {
  if (!UUID_RE.test(id)) return null;
  const row = await prisma.subscription.findUnique({ where: { id }, select: adminRowSelect });
  return row ? toAdminRow(row) : null;
}
