import { prisma } from "~/lib/db.server.ts";

// Shared by the account-*.test.ts files.
export { useMailCapture } from "../helpers/mail-capture.ts";

export const DAY_MS = 24 * 60 * 60 * 1000;

let counter = 0;
export async function createCategory(overrides: { parentId?: string; name?: string } = {}) {
  counter += 1;
  const n = `${Date.now().toString(36)}${counter}`;
  return prisma.category.create({
    data: { name: overrides.name ?? `Category ${n}`, slug: `category-${n}`, parentId: overrides.parentId ?? null, yearlyPrice: 299 },
  });
}

export async function createAnimation(overrides: { categoryId?: string; title?: string; description?: string; isActive?: boolean } = {}) {
  counter += 1;
  const n = `${Date.now().toString(36)}${counter}`;
  return prisma.animation.create({
    data: {
      title: overrides.title ?? `Animation ${n}`,
      slug: `animation-${n}`,
      description: overrides.description ?? "A doctor-verified animation.",
      categoryId: overrides.categoryId ?? null,
      coverImage: "/demo/cover.jpg",
      previewVideo: "/demo/preview.mp4",
      fullVideo: `/objects/uploads/full-${n}`,
      downloadFile: `/objects/uploads/zip-${n}`,
      duration: 95,
      isActive: overrides.isActive ?? true,
    },
  });
}
