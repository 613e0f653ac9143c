import { prisma } from "~/lib/db.server.ts";
import { notFound } from "~/lib/errors.server.ts";
import { enforceRateLimit } from "~/lib/rate-limit.server.ts";
import type { MisuseReportInput } from "~/validation/catalogue.ts";
import { NOT_FOUND } from "./categories.server.ts";

// Misuse reports

/** At most 10 misuse reports per address per hour: enough for people, not for scripts. */
export const MISUSE_REPORT_RULE = { limit: 10, windowMs: 60 * 60 * 1000 };

/**
 * Stores a report about an animation, from the detail page's dialog and POST /api/report-misuse
 * alike (one limit for both). An unknown animation id is a 404, not a dangling row.
 */
export async function createMisuseReport(input: MisuseReportInput, client: string) {
  await enforceRateLimit(`misuse-report:${client}`, MISUSE_REPORT_RULE);
  let animation: { id: string; title: string } | null = null;
  if (input.animationId) {
    animation = await prisma.animation.findUnique({ where: { id: input.animationId }, select: { id: true, title: true } });
    if (!animation) throw notFound(NOT_FOUND.animation);
  }
  return prisma.misuseReport.create({
    data: {
      animationId: animation?.id ?? null,
      animationTitle: animation?.title ?? input.animationTitle ?? null,
      reporterEmail: input.reporterEmail.toLowerCase(),
      message: input.message,
      link: input.link ?? null,
    },
    select: { id: true },
  });
}
