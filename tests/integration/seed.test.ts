import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { getEnv } from "~/lib/env.server.ts";
import { objectIdFromPath } from "~/lib/storage.server.ts";
import { EMAIL_TEMPLATES } from "../../prisma/seed-data/email-templates.ts";
import { DEMO_MEDIA_DIR } from "../../prisma/seed-data/demo-media.ts";
import { ANIMATIONS, animationSlug } from "../../prisma/seed-data/animations.ts";
import { DEMO_MEMBER, seed } from "../../prisma/seed.ts";
import { verifyPassword } from "~/lib/crypto.server.ts";

const OBJECT_PATH = /^\/objects\/uploads\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function counts() {
  const [users, categories, animations, links, doctors, pages, faqCategories, faqs, subscriptions, payments, refunds, templates, settings] =
    await Promise.all([
      prisma.user.count(),
      prisma.category.count(),
      prisma.animation.count(),
      prisma.animationDoctor.count(),
      prisma.doctor.count(),
      prisma.page.count(),
      prisma.faqCategory.count(),
      prisma.faq.count(),
      prisma.subscription.count(),
      prisma.payment.count(),
      prisma.refundRequest.count(),
      prisma.emailTemplate.count(),
      prisma.appSetting.count(),
    ]);
  return { users, categories, animations, links, doctors, pages, faqCategories, faqs, subscriptions, payments, refunds, templates, settings };
}

// Every stored object has a StoredObject row, whichever backend holds the bytes.
const storedObjects = () => prisma.storedObject.count();

let firstRun: Awaited<ReturnType<typeof counts>>;
let objectsAfterFirstRun: number;

beforeAll(async () => {
  await seed(prisma);
  firstRun = await counts();
  objectsAfterFirstRun = await storedObjects();
  await seed(prisma);
}, 120_000);

describe("seed", () => {
  it("is idempotent: a second run adds no rows and stores no objects", async () => {
    expect(await counts()).toEqual(firstRun);
    expect(await storedObjects()).toBe(objectsAfterFirstRun);
  });

  it("stores each demo file once and reuses it", () => {
    const demoFiles = fs.readdirSync(DEMO_MEDIA_DIR).length;
    expect(objectsAfterFirstRun).toBeGreaterThan(0);
    expect(objectsAfterFirstRun).toBeLessThanOrEqual(demoFiles);
  });

  it("creates the settings", async () => {
    const settings = Object.fromEntries((await prisma.appSetting.findMany()).map((s) => [s.key, s.value]));
    expect(settings).toMatchObject({
      platform_name: "Medanim",
      global_subscription_yearly_price: "99",
      homepage_animations_per_page: "6",
    });
  });

  it("creates five main categories, each with priced subcategories", async () => {
    const mains = await prisma.category.findMany({
      where: { parentId: null },
      include: { children: true },
      orderBy: { sortOrder: "asc" },
    });
    expect(mains.map((c) => c.name)).toEqual(["Plastic Surgery", "Dermatology", "Cardiology", "Orthopedics", "Neurology"]);
    for (const main of mains) {
      expect(main.slug).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(main.yearlyPrice).toBeNull();
      expect(main.description).toBeTruthy();
      expect(main.thumbnail).toMatch(OBJECT_PATH);
      expect(main.children.length).toBeGreaterThanOrEqual(2);
      for (const sub of main.children) {
        expect(Number(sub.yearlyPrice)).toBeGreaterThan(0);
        expect(sub.description).toBeTruthy();
      }
    }
  });

  it("creates at least 30 active animations with media, in subcategories", async () => {
    const animations = await prisma.animation.findMany({
      where: { isActive: true },
      include: { category: true, doctors: true },
    });
    expect(animations.length).toBeGreaterThanOrEqual(30);
    for (const animation of animations) {
      for (const field of ["coverImage", "previewVideo", "fullVideo", "downloadFile"] as const) {
        expect(animation[field], `${animation.slug}.${field}`).toMatch(OBJECT_PATH);
      }
      expect(animation.slug).toBe(animationSlug(animation.title));
      expect(animation.slug).toMatch(/^[a-z0-9]+(_[a-z0-9]+)*$/);
      expect(animation.duration).toBeGreaterThanOrEqual(45);
      expect(animation.duration).toBeLessThanOrEqual(420);
      expect(animation.category?.parentId).toBeTruthy();
      expect(animation.doctors.length).toBeGreaterThan(0);
    }
    expect(await prisma.animation.count({ where: { isActive: false } })).toBe(1);

    const subs = await prisma.category.findMany({
      where: { parentId: { not: null } },
      include: { _count: { select: { animations: { where: { isActive: true } } } } },
    });
    for (const sub of subs) expect(sub._count.animations, sub.slug).toBeGreaterThanOrEqual(2);
  });

  it("writes descriptions with heading lines the detail page recognises", () => {
    const heading = /^[A-Z][A-Za-z ]{0,49}$/m;
    expect(ANIMATIONS.filter((a) => heading.test(a.description)).length).toBeGreaterThanOrEqual(5);
  });

  it("stores media that can be read back", async () => {
    const animation = await prisma.animation.findFirstOrThrow({ where: { isActive: true } });
    const id = objectIdFromPath(animation.previewVideo)!;
    const file = path.join(getEnv().DATA_DIR, "objects", id);
    // The local backend keeps objects on disk; another backend may keep them elsewhere.
    if (fs.existsSync(file)) expect(fs.statSync(file).size).toBeGreaterThan(1000);
  });

  it("creates six active doctors linked to animations", async () => {
    const doctors = await prisma.doctor.findMany({ include: { _count: { select: { animations: true } } } });
    expect(doctors).toHaveLength(6);
    for (const doctor of doctors) {
      expect(doctor.isActive).toBe(true);
      expect(doctor.photo).toMatch(OBJECT_PATH);
      expect(doctor.website).toMatch(/^https:\/\//);
      expect(doctor.instagram).toMatch(/^(@|https:\/\/)/);
      expect(doctor._count.animations).toBeGreaterThanOrEqual(2);
    }
    expect(doctors.some((d) => (d.description?.length ?? 0) > 300)).toBe(true);
  });

  it("creates the legal and company pages and one draft", async () => {
    const pages = await prisma.page.findMany();
    const bySlug = Object.fromEntries(pages.map((p) => [p.slug, p]));
    expect(bySlug["terms-of-service"]).toMatchObject({ title: "Terms of Service", type: "legal", isPublished: true, showInFooter: true });
    expect(bySlug["privacy-policy"]).toMatchObject({ title: "Privacy Policy", type: "legal", isPublished: true, showInFooter: true });
    expect(bySlug["about"]).toMatchObject({ title: "About Us", type: "company", isPublished: true });
    expect(pages.filter((p) => !p.isPublished)).toHaveLength(1);
    for (const page of pages) expect(page.metaDescription).toBeTruthy();
  });

  it("creates FAQ categories and active FAQs with HTML answers", async () => {
    expect(await prisma.faqCategory.count()).toBeGreaterThanOrEqual(4);
    const faqs = await prisma.faq.findMany({ where: { isActive: true } });
    expect(faqs.length).toBeGreaterThanOrEqual(12);
    for (const faq of faqs) expect(faq.answer).toMatch(/^<(p|ul)>/);
    expect(await prisma.faq.count({ where: { isActive: false } })).toBe(1);
  });

  it("creates the admin", async () => {
    const admin = await prisma.user.findUniqueOrThrow({ where: { email: getEnv().SEED_ADMIN_EMAIL } });
    expect(admin.role).toBe("admin");
    expect(await verifyPassword(admin.password, getEnv().SEED_ADMIN_PASSWORD)).toBe(true);
  });

  it("creates the demo member with active global, individual and category subscriptions", async () => {
    const member = await prisma.user.findUniqueOrThrow({
      where: { email: DEMO_MEMBER.email },
      include: { subscriptions: { include: { payments: true } }, notificationPreferences: true },
    });
    expect(member).toMatchObject({ username: "demo_member", accountType: "premium", isEmailVerified: true, role: "user" });
    expect(member.notificationPreferences).not.toBeNull();
    expect(await verifyPassword(member.password, DEMO_MEMBER.password)).toBe(true);

    const now = Date.now();
    const active = member.subscriptions.filter((s) => s.status === "active" && s.endDate!.getTime() > now);
    expect(active.map((s) => s.type).sort()).toEqual(["category", "global", "individual", "individual"]);
    // Two purchases inside the 30-day refund window, so refunds can be tried on the demo data.
    const refundable = active.filter((s) => s.payments[0]!.createdAt.getTime() > now - 30 * 24 * 60 * 60 * 1000);
    expect(refundable.length).toBeGreaterThanOrEqual(2);
    for (const subscription of active) {
      expect(subscription.payments).toHaveLength(1);
      expect(subscription.payments[0]).toMatchObject({ status: "completed", subscriptionType: subscription.type });
      expect(Number(subscription.payments[0]!.amount)).toBe(Number(subscription.price));
    }
    const global = active.find((s) => s.type === "global")!;
    expect(Number(global.price)).toBe(99);
    expect(global.payments[0]!.description).toBe("Premium Yearly Subscription");

    const individual = active.find((s) => s.type === "individual")!;
    expect(Number(individual.price)).toBe(299);
    expect(individual.payments[0]!.description).toMatch(/^Individual License: /);
    // Expiring soon: 30 days or less away.
    expect(individual.endDate!.getTime() - now).toBeLessThanOrEqual(30 * 24 * 3600 * 1000);

    const category = active.find((s) => s.type === "category")!;
    const licensed = await prisma.category.findUniqueOrThrow({ where: { id: category.categoryId! } });
    expect(Number(category.price)).toBe(Number(licensed.yearlyPrice));
    expect(category.payments[0]!.description).toBe(`Category License: ${licensed.name}`);
    // Refundable: paid within the 30-day guarantee.
    expect(now - category.payments[0]!.createdAt.getTime()).toBeLessThan(30 * 24 * 3600 * 1000);

    const canceled = member.subscriptions.find((s) => s.status === "canceled")!;
    expect(canceled.payments[0]!.status).toBe("refunded");
  });

  it("creates the email templates", async () => {
    const names = (await prisma.emailTemplate.findMany({ select: { name: true } })).map((t) => t.name);
    expect(names.sort()).toEqual(EMAIL_TEMPLATES.map((t) => t.name).sort());
  });
});
