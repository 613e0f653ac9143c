import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, prisma } from "~/lib/db.server.ts";
import { prepareDatabase } from "../../scripts/prepare-database.ts";
import { getEnv } from "~/lib/env.server.ts";
import { localObjectFile, objectIdFromPath } from "~/lib/storage.server.ts";
import { probeVideoSize } from "~/services/media/media-jobs.server.ts";
import { DEMO_SETTING_VALUES } from "~/services/site/settings.server.ts";
import { EMAIL_TEMPLATES } from "../../prisma/seed-data/email-templates.ts";
import {
  DEMO_1080P_SLUG,
  DEMO_MEDIA_DIR,
  DEMO_SPANISH_CAPTIONS,
  PREVIEW_SECONDS,
  demoFile,
  demoPackageEntry,
  demoVideoSize,
  sectionHeadings,
} from "../../prisma/seed-data/demo-media.ts";
import { ANIMATIONS, animationSlug } from "../../prisma/seed-data/animations.ts";
import { DEMO_MEMBER, seed } from "../../prisma/seed.ts";
import { verifyPassword } from "~/lib/crypto.server.ts";
import { sendToApp } from "../helpers/app.ts";
import { formatLicenceTermsText } from "~/services/licensing/licence-terms-text.ts";

const OBJECT_PATH = /^\/objects\/uploads\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function counts() {
  const [users, categories, animations, links, doctors, pages, faqCategories, faqs, subscriptions, payments, refunds, templates, settings] = await Promise.all([
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

/** The bytes of a stored object: the tests run on the local backend. */
const objectBytes = (objectPath: string | null) => fs.readFileSync(localObjectFile(objectIdFromPath(objectPath)!));
const committed = (file: string) => fs.readFileSync(path.join(DEMO_MEDIA_DIR, file));

/**
 * An MP4's length in seconds from its movie header (moov › mvhd: timescale and duration), so
 * the check needs no ffmpeg.
 */
function mp4Seconds(data: Buffer) {
  const boxes = function* (start: number, end: number) {
    for (let at = start; at + 8 <= end;) {
      let size = data.readUInt32BE(at);
      let header = 8;
      if (size === 1) [size, header] = [Number(data.readBigUInt64BE(at + 8)), 16];
      else if (size === 0) size = end - at;
      if (size < header) throw new Error(`bad MP4 box at ${at}`);
      yield { type: data.toString("latin1", at + 4, at + 8), body: at + header, end: at + size };
      at += size;
    }
  };
  const moov = [...boxes(0, data.length)].find((box) => box.type === "moov");
  const mvhd = moov && [...boxes(moov.body, moov.end)].find((box) => box.type === "mvhd");
  if (!mvhd) throw new Error("no moov/mvhd box");
  const version = data[mvhd.body]!;
  const timescale = data.readUInt32BE(mvhd.body + (version === 1 ? 20 : 12));
  const duration = version === 1 ? Number(data.readBigUInt64BE(mvhd.body + 24)) : data.readUInt32BE(mvhd.body + 16);
  return duration / timescale;
}

const hasFfprobe = !spawnSync("ffprobe", ["-version"], { stdio: "ignore" }).error;
function ffprobeSeconds(file: string) {
  const probe = spawnSync("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file], { encoding: "utf8" });
  return Number(probe.stdout.trim());
}

/** The entries of a ZIP archive (stored or not: only names and the raw stored bytes are read). */
function zipEntries(zip: Buffer) {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error("not a zip: no end of central directory");
  const count = zip.readUInt16LE(eocd + 10);
  const entries = new Map<string, { method: number; data: Buffer }>();
  for (let at = zip.readUInt32LE(eocd + 16), n = 0; n < count; n++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error("bad central directory entry");
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const [nameLength, extraLength, commentLength] = [zip.readUInt16LE(at + 28), zip.readUInt16LE(at + 30), zip.readUInt16LE(at + 32)];
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString("utf8", at + 46, at + 46 + nameLength);
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    entries.set(name, { method, data: zip.subarray(dataStart, dataStart + size) });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
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

  it("on a later start (an upgrade), creates a system mail template the database lacks and keeps an admin's edit of another", async () => {
    await prisma.emailTemplate.delete({ where: { name: "misuse_reply" } });
    await prisma.emailTemplate.update({ where: { name: "welcome" }, data: { subject: "Hello from the clinic's own words" } });
    expect(await prepareDatabase(getDb())).toEqual({ firstRun: false });
    const reply = EMAIL_TEMPLATES.find((t) => t.name === "misuse_reply")!;
    expect(await prisma.emailTemplate.findUnique({ where: { name: "misuse_reply" } })).toMatchObject({ subject: reply.subject });
    expect((await prisma.emailTemplate.findUniqueOrThrow({ where: { name: "welcome" } })).subject).toBe("Hello from the clinic's own words");
  });

  it("stores each demo file once, plus one download package per animation built by the seed", async () => {
    const demoFiles = fs.readdirSync(DEMO_MEDIA_DIR).length;
    expect(objectsAfterFirstRun).toBeGreaterThan(0);
    expect(await prisma.storedObject.count({ where: { kind: "download" } })).toBe(ANIMATIONS.length);
    const spanish = Object.keys(DEMO_SPANISH_CAPTIONS).length;
    expect(await prisma.storedObject.count({ where: { kind: "caption" } })).toBe(ANIMATIONS.length + spanish);
    expect(objectsAfterFirstRun).toBeLessThanOrEqual(demoFiles + 2 * ANIMATIONS.length + spanish);
  });

  it("gives every animation a full demo video exactly as long as its catalogue duration", async () => {
    const animations = await prisma.animation.findMany({ select: { slug: true, duration: true, fullVideo: true } });
    expect(animations).toHaveLength(ANIMATIONS.length);
    for (const { slug, duration, fullVideo } of animations) {
      const file = demoFile.fullVideo(slug);
      expect(objectBytes(fullVideo).equals(committed(file)), `${slug}: stored video is ${file}`).toBe(true);
      expect(Math.abs(Math.round(mp4Seconds(committed(file))) - duration), `${file} (mvhd) vs ${duration} s`).toBeLessThanOrEqual(1);
      if (hasFfprobe) {
        const probed = ffprobeSeconds(path.join(DEMO_MEDIA_DIR, file));
        expect(Math.abs(Math.round(probed) - duration), `${file} (ffprobe ${probed}) vs ${duration} s`).toBeLessThanOrEqual(1);
      }
    }
  });

  it("records what the demo files are: each video's own frame (480×270, one 1920×1080, as ffprobe reads them), and no video among the extras", async () => {
    const animations = await prisma.animation.findMany({ select: { slug: true, fullVideo: true, videoWidth: true, videoHeight: true, downloadFormats: true } });
    for (const { slug, videoWidth, videoHeight, downloadFormats } of animations) {
      const { width, height } = demoVideoSize(slug);
      expect({ videoWidth, videoHeight, downloadFormats }, slug).toEqual({ videoWidth: width, videoHeight: height, downloadFormats: [] });
    }
    // Exactly the one named: a misspelt slug would leave every video at 480×270.
    expect(animations.filter((a) => a.videoHeight === 1080).map((a) => a.slug)).toEqual([DEMO_1080P_SLUG]);
    // The generator draws the 480×270 videos alike: a few probed stand for all (one ffprobe each is slow on a busy machine).
    if (hasFfprobe) {
      const probed = [...animations.filter((a) => a.slug !== DEMO_1080P_SLUG).slice(0, 3), animations.find((a) => a.slug === DEMO_1080P_SLUG)!];
      for (const { slug, fullVideo } of probed) {
        expect(await probeVideoSize(localObjectFile(objectIdFromPath(fullVideo)!)), slug).toEqual(demoVideoSize(slug));
      }
    }
  });

  it("cuts the 1080p demo master's preview at 1280×720, as the pipeline cuts previews (720p at most)", async () => {
    if (hasFfprobe) expect(await probeVideoSize(path.join(DEMO_MEDIA_DIR, demoFile.preview(DEMO_1080P_SLUG)))).toEqual({ width: 1280, height: 720 });
  });

  it("keeps every preview within 10 seconds", async () => {
    for (const { slug, previewVideo } of await prisma.animation.findMany({ select: { slug: true, previewVideo: true } })) {
      const seconds = mp4Seconds(objectBytes(previewVideo));
      expect(seconds, slug).toBeGreaterThan(PREVIEW_SECONDS - 1);
      expect(seconds, slug).toBeLessThanOrEqual(PREVIEW_SECONDS + 0.05);
      if (hasFfprobe) expect(ffprobeSeconds(path.join(DEMO_MEDIA_DIR, demoFile.preview(slug))), slug).toBeLessThanOrEqual(PREVIEW_SECONDS + 0.05);
    }
  });

  it("gives each animation its own extras for its licence package: its cover as a print still and a README, no video and no terms of their own", async () => {
    const terms = await prisma.licenceTerms.findUniqueOrThrow({ where: { version: 1 } });
    const animations = await prisma.animation.findMany({
      select: { slug: true, title: true, duration: true, downloadFile: true, doctors: { select: { doctor: { select: { name: true } } } } },
    });
    expect(new Set(animations.map((a) => a.downloadFile)).size).toBe(animations.length);
    for (const { slug, title, duration, downloadFile, doctors } of animations) {
      const info = await prisma.storedObject.findUniqueOrThrow({ where: { id: objectIdFromPath(downloadFile)! } });
      expect(info).toMatchObject({ kind: "download", contentType: "application/zip" });
      const entries = zipEntries(objectBytes(downloadFile));
      expect([...entries.keys()].sort(), slug).toEqual([demoPackageEntry.readme, demoPackageEntry.still(slug)].sort());
      for (const entry of entries.values()) expect(entry.method, slug).toBe(0);
      expect(entries.get(demoPackageEntry.still(slug))!.data.equals(committed(demoFile.cover(slug))), slug).toBe(true);
      const readme = entries.get(demoPackageEntry.readme)!.data.toString("utf8");
      expect(readme).toContain(title);
      expect(readme).toMatch(/demo media/i);
      expect(readme).toContain(`${duration} seconds`);
      // Nothing it does not hold: no 4K, no WebM.
      expect(readme).not.toMatch(/4K|WebM/);
      for (const { doctor } of doctors) expect(readme).toContain(doctor.name);
    }
    expect(formatLicenceTermsText(terms)).toContain("license terms, version 1");
    expect(formatLicenceTermsText(terms).replace(/\s+/g, " ")).toContain(terms.afterEnd);
  });

  it("gives every animation English captions that follow its video's chapters and end with it", async () => {
    const animations = await prisma.animation.findMany({
      select: {
        slug: true,
        duration: true,
        description: true,
        captions: { select: { language: true, label: true, path: true, cueCount: true, transcript: true } },
      },
    });
    for (const { slug, duration, description, captions } of animations) {
      expect(captions, slug).toHaveLength(DEMO_SPANISH_CAPTIONS[slug] ? 2 : 1);
      const track = captions.find((caption) => caption.language === "en");
      expect(track).toMatchObject({ language: "en", label: "English" });
      const vtt = objectBytes(track!.path).toString("utf8");
      expect(vtt.startsWith("WEBVTT\n"), slug).toBe(true);
      const times = [...vtt.matchAll(/(\d\d):(\d\d):(\d\d\.\d{3}) --> (\d\d):(\d\d):(\d\d\.\d{3})/g)].map((m) => [
        Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]),
        Number(m[4]) * 3600 + Number(m[5]) * 60 + Number(m[6]),
      ]);
      expect(times.length, slug).toBe(track!.cueCount);
      expect(times[0]![0]).toBe(0);
      expect(Math.abs(times.at(-1)![1] - duration), slug).toBeLessThan(0.01);
      for (let i = 1; i < times.length; i++) expect(times[i]![0], slug).toBeGreaterThanOrEqual(times[i - 1]![1] - 0.001);
      // Each section heading of the description is announced as the video reaches it.
      for (const heading of sectionHeadings(description)) expect(vtt, slug).toContain(`[${heading}]`);
      expect(track!.transcript.length, slug).toBeGreaterThan(40);
    }
  });

  it("gives the demo member's licensed animation Spanish captions: the English cues' times, translated text, its own transcript", async () => {
    expect(Object.keys(DEMO_SPANISH_CAPTIONS)).toContain("open_rhinoplasty_reshaping_the_nasal_framework");
    for (const [slug, lines] of Object.entries(DEMO_SPANISH_CAPTIONS)) {
      const captions = await prisma.animationCaption.findMany({
        where: { animation: { slug } },
        select: { language: true, label: true, path: true, cueCount: true, transcript: true },
      });
      const en = captions.find((c) => c.language === "en")!;
      const es = captions.find((c) => c.language === "es")!;
      expect(es).toMatchObject({ label: "Español", cueCount: en.cueCount });
      const times = (vtt: string) => [...vtt.matchAll(/^[\d:.]+ --> [\d:.]+$/gm)].map((m) => m[0]);
      const [enVtt, esVtt] = [objectBytes(en.path).toString("utf8"), objectBytes(es.path).toString("utf8")];
      expect(times(esVtt)).toEqual(times(enVtt));
      expect(times(esVtt)).toHaveLength(lines.length);
      for (const line of lines) expect(esVtt).toContain(`\n${line}\n`);
      expect(es.transcript).toContain("La rinoplastia abierta");
      expect(es.transcript).not.toContain("Open rhinoplasty");
    }
  });

  it("gives no two animations the same cover", async () => {
    const covers = (await prisma.animation.findMany({ select: { coverImage: true } })).map((a) => a.coverImage);
    expect(new Set(covers).size).toBe(covers.length);
    const bytes = new Set(covers.map((cover) => objectBytes(cover).toString("base64")));
    expect(bytes.size).toBe(covers.length);
  });

  it("creates the settings", async () => {
    const settings = Object.fromEntries((await prisma.appSetting.findMany()).map((s) => [s.key, s.value]));
    expect(settings).toMatchObject({
      platform_name: "Medanim",
      global_subscription_yearly_price: "99",
      homepage_animations_per_page: "6",
      // The demo's invented testimonial, which the pages label "Demo content".
      testimonial_quote: DEMO_SETTING_VALUES.testimonial_quote,
      testimonial_author: DEMO_SETTING_VALUES.testimonial_author,
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
    // HTML, or the placeholder the Help Center fills with the licence terms' rule (itself HTML).
    for (const faq of faqs) expect(faq.answer).toMatch(/^(<(p|ul)>|\{\{licence-terms:after-end\}\}$)/);
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

    // Each licence was bought at the price its animation shows (one price rule).
    for (const licence of active.filter((s) => s.type === "individual")) {
      const animation = await prisma.animation.findUniqueOrThrow({ where: { id: licence.animationId! } });
      expect(Number(licence.price)).toBe(Number(animation.individualPrice));
    }
    const individual = active.find((s) => s.type === "individual")!;
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

  it("gives every animation a current medical review by one of its doctors, of the animation's specialty", async () => {
    // Which specialties may review which main category (spine surgery sits under orthopedics).
    const fits: Record<string, RegExp> = {
      "plastic-surgery": /Plastic/,
      dermatology: /Dermatology/,
      cardiology: /Cardiology/,
      orthopedics: /Orthopedic|Neurosurgery/,
      neurology: /Neuro/,
    };
    const now = Date.now();
    const animations = await prisma.animation.findMany({
      include: { medicalReviewer: true, doctors: true, category: { include: { parent: true } } },
    });
    expect(animations.length).toBe(ANIMATIONS.length);
    for (const animation of animations) {
      const { medicalReviewer: reviewer, medicallyReviewedAt, reviewDueAt } = animation;
      expect(reviewer, animation.slug).not.toBeNull();
      expect(reviewer!.isActive).toBe(true);
      expect(
        animation.doctors.map((d) => d.doctorId),
        animation.slug,
      ).toContain(reviewer!.id);
      expect(reviewer!.specialty, animation.slug).toMatch(fits[animation.category!.parent!.slug]!);
      expect(medicallyReviewedAt!.getTime(), animation.slug).toBeLessThan(now);
      expect(reviewDueAt!.getTime(), animation.slug).toBeGreaterThan(now);
    }
  });

  it("so the home page may say doctor-verified: every published animation, counted", async () => {
    const published = await prisma.animation.count({ where: { isActive: true } });
    const res = await sendToApp("/", {});
    const html = res.body.toString("utf8").replaceAll("<!-- -->", "");
    expect(html).toContain("Most Advanced Doctor-Verified Medical Animations</h1>");
    expect(html).toContain(`All ${published} animations medically reviewed`);
  });

  it("keeps an admin's review on a new run, and gives one to an animation that has none", async () => {
    const [kept, missing] = await prisma.animation.findMany({ take: 2, orderBy: { slug: "asc" }, include: { doctors: true } });
    const adminReview = { medicallyReviewedAt: new Date(Date.UTC(2026, 5, 1)), reviewDueAt: new Date(Date.UTC(2026, 8, 1)) };
    await prisma.animation.update({ where: { id: kept!.id }, data: adminReview });
    await prisma.animation.update({ where: { id: missing!.id }, data: { medicallyReviewedAt: null, reviewDueAt: null, medicalReviewerId: null } });
    await seed(prisma);
    expect(await prisma.animation.findUniqueOrThrow({ where: { id: kept!.id } })).toMatchObject(adminReview);
    const restored = await prisma.animation.findUniqueOrThrow({ where: { id: missing!.id }, include: { medicalReviewer: true } });
    const firstDoctor = ANIMATIONS.find((a) => animationSlug(a.title) === missing!.slug)!.doctors[0];
    expect(restored.medicalReviewer?.slug).toBe(firstDoctor);
    expect(restored.medicallyReviewedAt!.getTime()).toBeLessThan(Date.now());
    expect(restored.reviewDueAt!.getTime()).toBeGreaterThan(Date.now());
  }, 60_000);

  it("says no more about reviews than the records hold: About page and FAQ", async () => {
    const about = await prisma.page.findUniqueOrThrow({ where: { slug: "about" } });
    const faqs = (await prisma.faq.findMany()).map((f) => f.answer).join("\n");
    for (const text of [about.content, about.metaDescription ?? "", faqs]) {
      expect(text).not.toMatch(/every animation is (scripted|reviewed)|doctor-verified/i);
    }
    expect(about.content).toContain("say who reviewed it, on which date, and when the next review is due");
  });

  it("creates the email templates", async () => {
    const names = (await prisma.emailTemplate.findMany({ select: { name: true } })).map((t) => t.name);
    expect(names.sort()).toEqual(EMAIL_TEMPLATES.map((t) => t.name).sort());
  });
});
