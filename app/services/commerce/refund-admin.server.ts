import { prisma } from "~/lib/db.server.ts";
import type { Prisma } from "~/generated/prisma/client.ts";
import { UUID_RE } from "~/validation/account.ts";
import type { RefundListQuery } from "~/validation/admin-refunds.ts";
import { memberMatches } from "../admin/user-admin.server.ts";

// The admin list of refund requests (/admin/refunds and its /api call; beside the request
// itself, the list reads userName, userEmail, paymentAmount, paymentDescription).
// Decisions are refunds.server.ts's approveRefund and rejectRefund.

const rowSelect = {
  id: true,
  reason: true,
  description: true,
  status: true,
  adminNotes: true,
  processedAt: true,
  createdAt: true,
  paymentId: true,
  user: { select: { id: true, firstName: true, lastName: true, email: true } },
  payment: { select: { amount: true, description: true, status: true, createdAt: true } },
} satisfies Prisma.RefundRequestSelect;

type Row = Prisma.RefundRequestGetPayload<{ select: typeof rowSelect }>;

function toAdminRow(row: Row) {
  return {
    id: row.id,
    userId: row.user.id,
    userName: `${row.user.firstName} ${row.user.lastName}`.trim(),
    userEmail: row.user.email,
    paymentId: row.paymentId,
    paymentAmount: Number(row.payment.amount),
    paymentDescription: row.payment.description,
    paymentStatus: row.payment.status,
    paidAt: row.payment.createdAt,
    reason: row.reason,
    description: row.description,
    status: row.status,
    adminNotes: row.adminNotes,
    processedAt: row.processedAt,
    createdAt: row.createdAt,
  };
}

export type AdminRefundRow = ReturnType<typeof toAdminRow>;

function listWhere({ search, status }: Pick<RefundListQuery, "search" | "status">): Prisma.RefundRequestWhereInput {
  const term = search?.trim();
  const contains = term ? { contains: term, mode: "insensitive" as const } : null;
  return {
    ...(status ? { status } : {}),
    ...(contains
      ? {
          OR: [{ reason: contains }, { description: contains }, { user: memberMatches(term!) }],
        }
      : {}),
  };
}

export async function listRefundRequests(query: RefundListQuery) {
  const rows = await prisma.refundRequest.findMany({
    where: listWhere(query),
    select: rowSelect,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip: (query.page - 1) * query.limit,
    take: query.limit + 1,
  });
  return { requests: rows.slice(0, query.limit).map(toAdminRow), page: query.page, hasNext: rows.length > query.limit };
}

/** The stat cards: Total Requests, Pending, Approved, Rejected (one grouped count). */
export async function refundStats() {
  const groups = await prisma.refundRequest.groupBy({ by: ["status"], _count: { _all: true } });
  const count = (status: string) => groups.find((g) => g.status === status)?._count._all ?? 0;
  return {
    total: groups.reduce((sum, g) => sum + g._count._all, 0),
    pending: count("pending"),
    approved: count("approved") + count("processed"),
    rejected: count("rejected"),
  };
}

export async function getRefundRequest(id: string) {
  if (!UUID_RE.test(id)) return null;
  const row = await prisma.refundRequest.findUnique({ where: { id }, select: rowSelect });
  return row ? toAdminRow(row) : null;
}
