import { prisma } from "~/lib/db.server.ts";
import { logger } from "~/lib/logger.server.ts";
import { sharedCacheMs } from "~/lib/memo.server.ts";
import { Prisma } from "~/generated/prisma/client.ts";

// Views. A detail page view adds one to `views`. With the catalogue cache on, views are
// batched: one UPDATE per second for every animation viewed meanwhile, instead of a write per
// page view (a write per view halved the detail page's throughput). The price: a crash loses
// at most a second of view counts; a clean shutdown calls flushViewCounts.

const VIEW_FLUSH_MS = 1000;
const pendingViews = new Map<string, number>();
let flushTimer: ReturnType<typeof setTimeout> | null = null;

export async function recordView(animationId: string) {
  if (sharedCacheMs() === 0) {
    await prisma.animation.updateMany({ where: { id: animationId }, data: { views: { increment: 1 } } });
    return;
  }
  queueView(animationId);
}

/** Adds a view to the next batch (flushed within a second). */
export function queueView(animationId: string) {
  pendingViews.set(animationId, (pendingViews.get(animationId) ?? 0) + 1);
  if (!flushTimer) {
    flushTimer = setTimeout(() => {
      flushViewCounts().catch((error: unknown) => logger.error({ err: error }, "storing view counts failed"));
    }, VIEW_FLUSH_MS);
    flushTimer.unref?.();
  }
}

/** Writes the queued views in one UPDATE; returns how many animations it touched. */
export async function flushViewCounts(): Promise<number> {
  if (flushTimer) clearTimeout(flushTimer);
  flushTimer = null;
  if (pendingViews.size === 0) return 0;
  const batch = [...pendingViews];
  pendingViews.clear();
  const values = Prisma.join(batch.map(([id, n]) => Prisma.sql`(${id}::uuid, ${n}::int)`));
  try {
    await prisma.$executeRaw`UPDATE "Animation" AS a SET "views" = a."views" + v.n FROM (VALUES ${values}) AS v(id, n) WHERE a."id" = v.id`;
  } catch (error) {
    // Kept for the next try rather than lost.
    for (const [id, n] of batch) pendingViews.set(id, (pendingViews.get(id) ?? 0) + n);
    throw error;
  }
  return batch.length;
}
