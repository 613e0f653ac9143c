import { prisma } from "~/lib/db.server.ts";
import { notFound } from "~/lib/errors.server.ts";
import type { MisuseReportInput } from "~/validation/catalogue.ts";
import { NOT_FOUND } from "./categories.server.ts";

// Misuse reports

/** Stores a report about an animation. An unknown animation id is a 404, not a dangling row. */
export async function createMisuseReport(input: MisuseReportInput) {
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
