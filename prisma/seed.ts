import crypto from "node:crypto";
// Idempotent demo data. `npm run db:seed` runs it against the configured database; `npm start`
// runs it on first start. Running it again creates nothing new and overwrites no admin edit:
// rows are matched on their unique fields, and media are stored only for rows that lack them.
import fs from "node:fs";
import path from "node:path";
import { hashPassword } from "../app/lib/crypto.server.ts";
import { getEnv } from "../app/lib/env.server.ts";
import { saveObject, type ObjectKind } from "../app/lib/storage.server.ts";
import { parseVtt } from "../app/lib/vtt.ts";
import { REVIEW_INTERVAL_MONTHS } from "../app/validation/admin-captions.ts";
import {
  categoryLicencePrice,
  DEFAULT_INDIVIDUAL_LICENCE_PRICE,
  DEFAULT_PREMIUM_YEARLY_PRICE,
  individualLicencePrice,
} from "../app/services/commerce/prices.server.ts";
import type { Prisma, PrismaClient } from "../app/generated/prisma/client.ts";
import { ANIMATIONS, animationSlug } from "./seed-data/animations.ts";
import { CATEGORIES } from "./seed-data/categories.ts";
import { readDownloadFormats } from "../app/services/media/media-facts.server.ts";
import { DEMO_SETTING_VALUES } from "../app/services/site/settings.server.ts";
import { getCurrentLicenceTerms } from "../app/services/licensing/licence-terms.server.ts";
import {
  DEMO_MEDIA_DIR,
  DEMO_SPANISH_CAPTIONS,
  contentTypeOf,
  demoCaptions,
  demoFile,
  demoPackage,
  demoVideoSize,
  translatedCaptions,
} from "./seed-data/demo-media.ts";
import { DOCTORS } from "./seed-data/doctors.ts";
import { seedEmailTemplates } from "./seed-data/email-templates.ts";
import { FAQ_CATEGORIES } from "./seed-data/faqs.ts";
import { PAGES } from "./seed-data/pages.ts";

export const DEMO_MEMBER = {
  email: "member@medanim.local",
  password: "member12345",
  username: "demo_member",
  firstName: "Jordan",
  lastName: "Lee",
};

const DAY = 24 * 60 * 60 * 1000;
const daysFromNow = (days: number) => new Date(Date.now() + days * DAY);

export async function seed(prisma: PrismaClient) {
  const media = demoMediaStore();
  await seedEmailTemplates(prisma);
  await seedSettings(prisma);
  await seedAdmin(prisma);
  await seedCategories(prisma, media);
  await seedDoctors(prisma, media);
  await seedAnimations(prisma, media);
  await seedPages(prisma);
  await seedFaqs(prisma);
  await seedDemoMember(prisma);
}

/**
 * Stores each demo file at most once per run, on first use, and hands out its object path:
 * subcategories share their main category's thumbnail, doctors may share a portrait. The files
 * live in prisma/demo-media (made by scripts/make-demo-media.ts); nothing protected is served
 * from public/.
 */
function demoMediaStore() {
  const stored = new Map<string, Promise<string>>();
  return (file: string, kind: ObjectKind) => {
    let objectPath = stored.get(file);
    if (!objectPath) {
      objectPath = saveObject({
        body: fs.createReadStream(path.join(DEMO_MEDIA_DIR, file)),
        contentType: contentTypeOf(file),
        kind,
      }).then((saved) => saved.path);
      stored.set(file, objectPath);
    }
    return objectPath;
  };
}
type MediaStore = ReturnType<typeof demoMediaStore>;

async function seedSettings(prisma: PrismaClient) {
  for (const [key, value, description] of [
    ["platform_name", "Medanim", "Name shown across the site and in e-mails"],
    ["global_subscription_yearly_price", "99", "Premium yearly price in USD"],
    ["homepage_animations_per_page", "6", "Animation cards per page on the home page"],
    // Invented for the demo: the public pages label it "Demo content" until an admin replaces it.
    ["testimonial_quote", DEMO_SETTING_VALUES.testimonial_quote!, "Customer quote shown on the premium and license pages (empty: none shown)"],
    ["testimonial_author", DEMO_SETTING_VALUES.testimonial_author!, "Who said the testimonial, shown under it"],
  ] as const) {
    await prisma.appSetting.upsert({ where: { key }, update: {}, create: { key, value, description } });
  }
}

async function seedAdmin(prisma: PrismaClient) {
  const env = getEnv();
  // Argon2 is slow on purpose: hash only when the account is really created.
  if (await prisma.user.findUnique({ where: { email: env.SEED_ADMIN_EMAIL }, select: { id: true } })) return;
  await prisma.user.upsert({
    where: { email: env.SEED_ADMIN_EMAIL },
    update: {},
    create: {
      email: env.SEED_ADMIN_EMAIL,
      username: "admin",
      firstName: "Site",
      lastName: "Admin",
      password: await hashPassword(env.SEED_ADMIN_PASSWORD),
      role: "admin",
      isEmailVerified: true,
      termsAcceptedAt: new Date(),
      notificationPreferences: { create: {} },
    },
  });
}

/** Main categories and their priced subcategories, which share their main category's thumbnail. */
async function seedCategories(prisma: PrismaClient, media: MediaStore) {
  for (const main of CATEGORIES) {
    const thumbnail = () => media(demoFile.thumbnail(main.slug), "thumbnail");
    const parent = await upsertCategory(prisma, main.slug, thumbnail, {
      name: main.name,
      slug: main.slug,
      description: main.description,
      sortOrder: main.sortOrder,
    });
    for (const [index, sub] of main.subcategories.entries()) {
      await upsertCategory(prisma, sub.slug, thumbnail, {
        ...sub,
        sortOrder: index + 1,
        parent: { connect: { id: parent.id } },
      });
    }
  }
}

async function upsertCategory(prisma: PrismaClient, slug: string, thumbnail: () => Promise<string>, data: Omit<Prisma.CategoryCreateInput, "thumbnail">) {
  const existing = await prisma.category.findUnique({ where: { slug }, select: { id: true, thumbnail: true } });
  if (existing?.thumbnail) return existing;
  const withThumbnail = { thumbnail: await thumbnail() };
  return prisma.category.upsert({
    where: { slug },
    update: withThumbnail,
    create: { ...data, ...withThumbnail },
    select: { id: true, thumbnail: true },
  });
}

async function seedDoctors(prisma: PrismaClient, media: MediaStore) {
  for (const { photo, ...doctor } of DOCTORS) {
    const existing = await prisma.doctor.findUnique({ where: { slug: doctor.slug }, select: { photo: true } });
    if (existing?.photo) continue;
    const withPhoto = { photo: await media(demoFile.doctorPhoto(photo), "doctor-photo") };
    await prisma.doctor.upsert({ where: { slug: doctor.slug }, update: withPhoto, create: { ...doctor, ...withPhoto } });
  }
}

/**
 * Each animation gets its own demo cover, preview and full video (as long as its catalogue
 * duration), and the extras of its licence package built here in memory: a zip with its cover
 * as a print still and a README. The licence package itself is made from the master by the
 * media pipeline (services/media/packages.server.ts).
 */
async function seedAnimations(prisma: PrismaClient, media: MediaStore) {
  const categories = new Map(
    (await prisma.category.findMany({ where: { parentId: { not: null } }, select: { id: true, slug: true } })).map((c) => [c.slug, c.id]),
  );
  const doctorNames = new Map(DOCTORS.map((doctor) => [doctor.slug, doctor.name]));
  for (const seed of ANIMATIONS) {
    const slug = animationSlug(seed.title);
    const categoryId = categories.get(seed.category);
    if (!categoryId) throw new Error(`Seed animation "${seed.title}" names an unknown category ${seed.category}`);
    const downloadPackage = async () => {
      const body = demoPackage({
        slug,
        title: seed.title,
        duration: seed.duration,
        doctors: seed.doctors.map((doctor) => doctorNames.get(doctor) ?? doctor),
      });
      return (await saveObject({ body, contentType: contentTypeOf(`${slug}.zip`), kind: "download" })).path;
    };

    const existing = await prisma.animation.findUnique({
      where: { slug },
      select: {
        id: true,
        coverImage: true,
        previewVideo: true,
        fullVideo: true,
        downloadFile: true,
        medicallyReviewedAt: true,
        medicalReviewerId: true,
        captions: { select: { language: true } },
      },
    });
    if (existing) await seedCaptions(prisma, existing.id, slug, seed, existing.captions);
    const review = demoReview(seed);
    // A review recorded by an admin is theirs; only an animation with none gets the demo's.
    if (existing && !existing.medicallyReviewedAt && !existing.medicalReviewerId) {
      await prisma.animation.update({ where: { id: existing.id }, data: review });
    }
    const missing = {
      coverImage: !existing?.coverImage ? () => media(demoFile.cover(slug), "cover") : undefined,
      previewVideo: !existing?.previewVideo ? () => media(demoFile.preview(slug), "preview") : undefined,
      fullVideo: !existing?.fullVideo ? () => media(demoFile.fullVideo(slug), "video") : undefined,
      downloadFile: !existing?.downloadFile ? downloadPackage : undefined,
    };
    if (existing && Object.values(missing).every((store) => !store)) continue;
    const mediaPaths: Record<string, string> = {};
    for (const [field, store] of Object.entries(missing)) if (store) mediaPaths[field] = await store();
    // What the stored files are, as an admin upload records it: the demo video's size, and the
    // formats read back from the package's own ZIP directory.
    const videoSize = demoVideoSize(slug);
    const mediaFacts = {
      ...(mediaPaths.fullVideo ? { videoWidth: videoSize.width, videoHeight: videoSize.height } : {}),
      ...(mediaPaths.downloadFile ? { downloadFormats: await readDownloadFormats(mediaPaths.downloadFile) } : {}),
    };

    const createdAt = new Date(Date.now() - seed.ageDays * DAY);
    const saved = await prisma.animation.upsert({
      where: { slug },
      update: { ...mediaPaths, ...mediaFacts },
      create: {
        slug,
        title: seed.title,
        description: seed.description,
        duration: seed.duration,
        individualPrice: seed.price ?? DEFAULT_INDIVIDUAL_LICENCE_PRICE,
        views: seed.views,
        isActive: seed.isActive ?? true,
        createdAt,
        updatedAt: createdAt,
        category: { connect: { id: categoryId } },
        ...mediaPaths,
        ...mediaFacts,
        doctors: { create: seed.doctors.map((doctorSlug) => ({ doctor: { connect: { slug: doctorSlug } } })) },
        ...review,
      },
      select: { id: true },
    });
    if (!existing) await seedCaptions(prisma, saved.id, slug, seed, []);
  }
}

/**
 * The demo's medical review record: by the animation's first doctor (the one whose specialty
 * it belongs to), on a day a few days before it was published (at most ten months ago), next due
 * twelve months after that. So on the day the seed runs every demo review is current, and it
 * lapses like a real one if nobody records the next.
 */
function demoReview(seed: { ageDays: number; doctors: string[] }) {
  const reviewer = seed.doctors[0];
  if (!reviewer) throw new Error("A demo animation needs a doctor to review it");
  const day = new Date(Date.now() - (Math.min(seed.ageDays, 300) + 3) * DAY);
  const reviewedAt = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate()));
  // The 1st-28th of a month: the same day REVIEW_INTERVAL_MONTHS later always exists.
  reviewedAt.setUTCDate(Math.min(reviewedAt.getUTCDate(), 28));
  const reviewDueAt = new Date(Date.UTC(reviewedAt.getUTCFullYear(), reviewedAt.getUTCMonth() + REVIEW_INTERVAL_MONTHS, reviewedAt.getUTCDate()));
  return { medicallyReviewedAt: reviewedAt, reviewDueAt, medicalReviewer: { connect: { slug: reviewer } } };
}

/**
 * English demo captions that follow the demo video's chapters (the player shows them; the page
 * offers the transcript), and Spanish ones with the same cues where the demo has a translation
 * (DEMO_SPANISH_CAPTIONS): those of an animation with none, and the Spanish one an older seed
 * did not add.
 */
async function seedCaptions(
  prisma: PrismaClient,
  animationId: string,
  slug: string,
  seed: { description: string; duration: number },
  have: { language: string }[],
) {
  const english = demoCaptions(seed.description, seed.duration);
  const spanish = DEMO_SPANISH_CAPTIONS[slug];
  const tracks = [
    { language: "en", label: "English", vtt: english },
    ...(spanish ? [{ language: "es", label: "Español", vtt: translatedCaptions(english, spanish) }] : []),
  ];
  for (const { language, label, vtt } of tracks) {
    // A language it has is left as it is; so is an animation whose English an admin replaced.
    if (have.some((track) => track.language === language) || (language === "en" && have.length)) continue;
    const { cueCount, transcript } = parseVtt(vtt);
    const { path: objectPath } = await saveObject({ body: Buffer.from(vtt), contentType: "text/vtt", kind: "caption" });
    await prisma.animationCaption.create({
      data: { animationId, language, label, path: objectPath, transcript, cueCount, size: Buffer.byteLength(vtt) },
    });
  }
}

async function seedPages(prisma: PrismaClient) {
  for (const page of PAGES) {
    await prisma.page.upsert({ where: { slug: page.slug }, update: {}, create: page });
  }
}

async function seedFaqs(prisma: PrismaClient) {
  for (const { faqs, ...category } of FAQ_CATEGORIES) {
    const { id: categoryId } = await prisma.faqCategory.upsert({
      where: { slug: category.slug },
      update: {},
      create: category,
      select: { id: true },
    });
    // FAQs have no unique field: a question is matched by its text within its category.
    for (const [index, faq] of faqs.entries()) {
      const exists = await prisma.faq.findFirst({ where: { categoryId, question: faq.question }, select: { id: true } });
      if (!exists) await prisma.faq.create({ data: { ...faq, categoryId, sortOrder: index + 1 } });
    }
  }
}

/**
 * A premium member with a realistic history: an active global subscription, an individual
 * licence about to expire, a recent individual and a recent category licence (refundable: paid
 * within 30 days) and an old refunded subscription. Created whole or not at all, and only if the address is free.
 */
async function seedDemoMember(prisma: PrismaClient) {
  if (await prisma.user.findUnique({ where: { email: DEMO_MEMBER.email }, select: { id: true } })) return;
  const password = await hashPassword(DEMO_MEMBER.password);
  const admin = await prisma.user.findUnique({ where: { email: getEnv().SEED_ADMIN_EMAIL }, select: { id: true } });
  const licensedAnimation = await prisma.animation.findUniqueOrThrow({
    where: { slug: animationSlug("Open Rhinoplasty: Reshaping the Nasal Framework") },
    select: { id: true, title: true, individualPrice: true },
  });
  const recentAnimation = await prisma.animation.findUniqueOrThrow({
    where: { slug: animationSlug("Deep Plane Facelift") },
    select: { id: true, title: true, individualPrice: true },
  });
  const licensedCategory = await prisma.category.findUniqueOrThrow({
    where: { slug: "interventional-cardiology" },
    select: { id: true, name: true, parentId: true, yearlyPrice: true },
  });

  const terms = await getCurrentLicenceTerms();
  await prisma.$transaction(async (tx) => {
    const member = await tx.user.create({
      data: {
        email: DEMO_MEMBER.email,
        username: DEMO_MEMBER.username,
        firstName: DEMO_MEMBER.firstName,
        lastName: DEMO_MEMBER.lastName,
        password,
        accountType: "premium",
        isEmailVerified: true,
        termsAcceptedAt: daysFromNow(-430),
        createdAt: daysFromNow(-430),
        notificationPreferences: { create: { emailPromotions: true } },
      },
    });
    const purchase = async (p: {
      type: "global" | "individual" | "category";
      status: "active" | "canceled";
      paidDaysAgo: number;
      endsInDays: number;
      price: number;
      paymentStatus: "completed" | "refunded";
      description: string;
      animationId?: string;
      categoryId?: string;
    }) => {
      const paidAt = daysFromNow(-p.paidDaysAgo);
      // Ids as the local test mode makes them, so the demo history behaves like a purchase made
      // in test mode: it renews, can be refunded, and its renewal switch works.
      const testId = crypto.randomUUID();
      const subscription = await tx.subscription.create({
        data: {
          stripeSubscriptionId: `test_sub_${testId}`,
          userId: member.id,
          type: p.type,
          status: p.status,
          startDate: paidAt,
          endDate: daysFromNow(p.endsInDays),
          price: p.price,
          animationId: p.animationId,
          categoryId: p.categoryId,
          createdAt: paidAt,
        },
      });
      return tx.payment.create({
        data: {
          userId: member.id,
          subscriptionId: subscription.id,
          amount: p.price,
          status: p.paymentStatus,
          subscriptionType: p.type,
          description: p.description,
          stripePaymentIntentId: `test_pi_${testId}`,
          stripeInvoiceId: `test_in_${testId}`,
          // As a checkout records it: licences accept the terms in effect, premium none.
          licenceTermsVersion: p.type === "global" ? null : terms.version,
          createdAt: paidAt,
        },
      });
    };

    // The year before: premium bought, then refunded within the guarantee and canceled.
    const refunded = await purchase({
      type: "global",
      status: "canceled",
      paidDaysAgo: 420,
      endsInDays: -55,
      price: DEFAULT_PREMIUM_YEARLY_PRICE,
      paymentStatus: "refunded",
      description: "Premium Yearly Subscription",
    });
    await tx.refundRequest.create({
      data: {
        userId: member.id,
        paymentId: refunded.id,
        reason: "Purchased by mistake",
        description: "Our clinic already had a subscription under another account.",
        contactEmail: DEMO_MEMBER.email,
        status: "processed",
        adminNotes: "Duplicate purchase confirmed; refunded in full.",
        processedById: admin?.id,
        processedAt: daysFromNow(-416),
        createdAt: daysFromNow(-418),
      },
    });
    // A yearly licence bought 345 days ago: expires in 20 days, so it shows as expiring soon.
    await purchase({
      type: "individual",
      status: "active",
      paidDaysAgo: 345,
      endsInDays: 20,
      price: individualLicencePrice(licensedAnimation.individualPrice),
      paymentStatus: "completed",
      description: `Individual License: ${licensedAnimation.title}`,
      animationId: licensedAnimation.id,
    });
    await purchase({
      type: "global",
      status: "active",
      paidDaysAgo: 61,
      endsInDays: 304,
      price: DEFAULT_PREMIUM_YEARLY_PRICE,
      paymentStatus: "completed",
      description: "Premium Yearly Subscription",
    });
    // Bought 5 days ago: a second purchase inside the 30-day money-back guarantee.
    await purchase({
      type: "individual",
      status: "active",
      paidDaysAgo: 5,
      endsInDays: 360,
      price: individualLicencePrice(recentAnimation.individualPrice),
      paymentStatus: "completed",
      description: `Individual License: ${recentAnimation.title}`,
      animationId: recentAnimation.id,
    });
    // Paid 12 days ago: still inside the 30-day money-back guarantee.
    await purchase({
      type: "category",
      status: "active",
      paidDaysAgo: 12,
      endsInDays: 353,
      price: categoryLicencePrice(licensedCategory)!,
      paymentStatus: "completed",
      description: `Category License: ${licensedCategory.name}`,
      categoryId: licensedCategory.id,
    });
  });
}

if (process.argv[1]?.endsWith("seed.ts")) {
  const { getDb } = await import("../app/lib/db.server.ts");
  const db = getDb();
  try {
    await db.migrate();
    const started = Date.now();
    await seed(db.prisma);
    console.log(`Seed complete in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  } finally {
    await db.close();
  }
}
