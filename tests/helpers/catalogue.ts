import crypto from "node:crypto";
import { prisma } from "~/lib/db.server.ts";
import type { Prisma } from "~/generated/prisma/client.ts";

// A small known catalogue for the catalogue tests: two main categories (one with two
// subcategories, one empty), two doctors, and animations with every media field set.

export function objectPath() {
  return `/objects/uploads/${crypto.randomUUID()}`;
}

let clock = Date.UTC(2025, 0, 1);
/** Strictly increasing creation times, so "newest first" is predictable. */
function nextDate() {
  clock += 60_000;
  return new Date(clock);
}

const DAY = 24 * 60 * 60 * 1000;

export async function createAnimation(data: Partial<Prisma.AnimationUncheckedCreateInput> & { title: string }) {
  const slug =
    data.slug ??
    data.title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "");
  return prisma.animation.create({
    data: {
      description: `${data.title} explained step by step.`,
      coverImage: objectPath(),
      previewVideo: objectPath(),
      fullVideo: objectPath(),
      downloadFile: objectPath(),
      duration: 95,
      createdAt: nextDate(),
      ...data,
      slug,
    },
  });
}

export async function createCatalogue() {
  const plastic = await prisma.category.create({
    data: { name: "Plastic Surgery", slug: "plastic-surgery", description: "Aesthetic and reconstructive procedures.", sortOrder: 1 },
  });
  const cardiology = await prisma.category.create({
    data: { name: "Cardiology", slug: "cardiology", description: "The heart and its vessels.", sortOrder: 2 },
  });
  const facial = await prisma.category.create({
    data: { name: "Facial Procedures", slug: "facial-procedures", parentId: plastic.id, yearlyPrice: 199, description: "Face and neck.", sortOrder: 1 },
  });
  const body = await prisma.category.create({
    data: { name: "Body Contouring", slug: "body-contouring", parentId: plastic.id, description: "Body shaping.", sortOrder: 2 },
  });
  const hidden = await prisma.category.create({
    data: { name: "Hidden Category", slug: "hidden-category", isActive: false },
  });
  const smith = await prisma.doctor.create({
    data: {
      name: "Dr. Jane Smith",
      slug: "jane-smith",
      specialty: "Plastic Surgeon",
      description: "Board-certified plastic surgeon. ".repeat(15).trim(),
      website: "https://janesmith.example.com",
      instagram: "@janesmith",
    },
  });
  const lonely = await prisma.doctor.create({
    data: { name: "Dr. Alan Grey", slug: "alan-grey", specialty: "Cardiologist" },
  });
  // Dr. Smith's current medical reviews: her profile's Verified Animations.
  const reviewedBySmith = { medicalReviewerId: smith.id, medicallyReviewedAt: new Date(Date.now() - 30 * DAY), reviewDueAt: new Date(Date.now() + 300 * DAY) };
  const rhinoplasty = await createAnimation({
    title: "Rhinoplasty",
    categoryId: facial.id,
    description: "Overview\nReshaping the nose under general anaesthesia.",
    individualPrice: 149,
    duration: 125,
    doctors: { create: [{ doctorId: smith.id }] },
    ...reviewedBySmith,
  });
  const facelift = await createAnimation({ title: "Facelift", categoryId: facial.id, doctors: { create: [{ doctorId: smith.id }] }, ...reviewedBySmith });
  const tummy = await createAnimation({ title: "Tummy Tuck", categoryId: body.id });
  const bypass = await createAnimation({ title: "Heart Bypass", categoryId: cardiology.id, description: "Coronary artery bypass grafting." });
  const retired = await createAnimation({ title: "Retired Animation", categoryId: facial.id, isActive: false });
  return { plastic, cardiology, facial, body, hidden, smith, lonely, rhinoplasty, facelift, tummy, bypass, retired };
}

/** An active subscription ending in a year. */
export async function grant(userId: string, type: "global" | "category" | "individual", target: { animationId?: string; categoryId?: string } = {}) {
  return prisma.subscription.create({
    data: {
      userId,
      type,
      status: "active",
      startDate: new Date(),
      endDate: new Date(Date.now() + 365 * 24 * 3600 * 1000),
      price: 99,
      ...target,
    },
  });
}
