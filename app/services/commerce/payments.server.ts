import { prisma } from "~/lib/db.server.ts";
import { HISTORY_LIMIT } from "./subscriptions.server.ts";

// A user's payments: their history (with any open refund request), one payment looked up for
// its owner, the total spent (billing and the /api contract). Taking a payment and
// recording it belong here too. Every query is scoped to one user and bounded.

/** The /api shape (id, description, subscriptionType, amount, status, createdAt). */
export async function listPayments(userId: string) {
  const rows = await prisma.payment.findMany({
    where: { userId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: HISTORY_LIMIT,
    select: { id: true, description: true, subscriptionType: true, amount: true, status: true, createdAt: true },
  });
  return rows.map((p) => ({ ...p, amount: Number(p.amount) }));
}

export type PaymentJson = Awaited<ReturnType<typeof listPayments>>[number];

/** The billing screen's history: each payment with its open refund request, if any. */
export async function listPaymentsWithRefunds(userId: string) {
  const rows = await prisma.payment.findMany({
    where: { userId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: HISTORY_LIMIT,
    select: {
      id: true,
      description: true,
      subscriptionType: true,
      amount: true,
      status: true,
      createdAt: true,
      refundRequests: {
        where: { status: { in: ["pending", "approved"] } },
        orderBy: { createdAt: "desc" },
        take: 1,
        select: { status: true },
      },
    },
  });
  return rows.map(({ refundRequests, ...p }) => ({ ...p, amount: Number(p.amount), refundStatus: refundRequests[0]?.status ?? null }));
}

/** A payment of this user, for /refund?payment={id}; null when it is not theirs. */
export async function findOwnPayment(userId: string, paymentId: string) {
  const payment = await prisma.payment.findUnique({
    where: { id: paymentId },
    select: { id: true, userId: true, subscriptionId: true, status: true, amount: true, description: true, createdAt: true },
  });
  return payment && payment.userId === userId ? { ...payment, amount: Number(payment.amount) } : null;
}

/** Sum of the user's completed payments, in dollars. */
export async function getTotalSpent(userId: string) {
  const spent = await prisma.payment.aggregate({ where: { userId, status: "completed" }, _sum: { amount: true } });
  return Number(spent._sum.amount ?? 0);
}
