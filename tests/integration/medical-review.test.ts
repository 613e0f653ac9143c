import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { formatLongDate } from "~/lib/format.ts";
import { appUrl } from "~/lib/mail.server.ts";
import * as medicalScreen from "~/routes/admin/animation-medical.tsx";
import * as listScreen from "~/routes/admin/animations.tsx";
import * as settingsScreen from "~/routes/admin/settings.tsx";
import * as publishApi from "~/routes/api/admin/animations.publish.ts";
import * as animationsApi from "~/routes/api/animations.ts";
import * as animationApi from "~/routes/api/animations.slug.ts";
import * as doctorApi from "~/routes/api/doctors.slug.ts";
import * as settingApi from "~/routes/api/settings.key.ts";
import { REVIEWER_NOT_LINKED } from "~/services/catalogue/medical-review.server.ts";
import { CHOOSE_REVIEWER } from "~/validation/admin-captions.ts";
import { sendToApp } from "../helpers/app.ts";
import { accessTokenFor, createPaidSubscription, createUser, sessionCookieFor } from "../helpers/factories.ts";
import { callRoute } from "../helpers/route.ts";
import { storeFile } from "./media-helpers.ts";
import { finishLadder } from "../helpers/publishing.ts";
import { pdfText } from "../helpers/pdf-text.ts";

// "Doctor-verified" is backed by the product's own records: a medical review names its doctor,
// its date and the next one, and the animation page, the licensed embed and the licence
// certificate (page and PDF) print exactly that sentence while the review is current, and no
// verification claim at all otherwise. Publishing can be made to require a current review.

const DAY_MS = 24 * 60 * 60 * 1000;
/** Any wording that claims a doctor checked the animation. */
const CLAIM = /medically reviewed|verified by|doctor-verified/i;

const midnight = (daysFromNow: number) => {
  const day = new Date(Date.now() + daysFromNow * DAY_MS);
  return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate()));
};
const reviewedAt = midnight(-40);
const nextReviewAt = midnight(325);
const SENTENCE = `Medically reviewed by Dr. Ada Lind (Orthopaedic Surgery) on ${formatLongDate(reviewedAt)} · next review ${formatLongDate(nextReviewAt)}`;

type World = Awaited<ReturnType<typeof createWorld>>;
let world: World;

async function createWorld() {
  const n = crypto.randomUUID().slice(0, 8);
  const main = await prisma.category.create({ data: { name: `Orthopaedics ${n}`, slug: `ortho-${n}` } });
  const sub = await prisma.category.create({ data: { name: `Knee ${n}`, slug: `knee-${n}`, parentId: main.id, yearlyPrice: 199 } });
  const doctor = await prisma.doctor.create({ data: { name: "Dr. Ada Lind", slug: `ada-lind-${n}`, specialty: "Orthopaedic Surgery" } });
  const other = await prisma.doctor.create({ data: { name: "Dr. Ben Ross", slug: `ben-ross-${n}`, specialty: "Cardiology" } });
  const animation = (title: string, review: { medicallyReviewedAt: Date; reviewDueAt: Date } | null) =>
    prisma.animation.create({
      data: {
        title,
        slug: `${title.toLowerCase().replaceAll(" ", "_")}_${n}`,
        description: "How the knee is repaired, step by step.",
        coverImage: "/demo/cover.jpg",
        previewVideo: "/demo/preview.mp4",
        fullVideo: `/objects/uploads/${crypto.randomUUID()}`,
        downloadFile: `/objects/uploads/${crypto.randomUUID()}`,
        categoryId: sub.id,
        doctors: { create: { doctorId: doctor.id } },
        ...(review ? { ...review, medicalReviewerId: doctor.id } : {}),
      },
    });
  const reviewed = await animation("Reviewed Knee", { medicallyReviewedAt: reviewedAt, reviewDueAt: nextReviewAt });
  const never = await animation("Never Reviewed Knee", null);
  // Reviewed thirteen months ago; the next review was due five days ago.
  const lapsed = await animation("Lapsed Knee", { medicallyReviewedAt: midnight(-395), reviewDueAt: midnight(-5) });
  // Their videos are processed: what publishing asks of them here is the review alone.
  for (const row of [reviewed, never, lapsed]) await finishLadder(row.id);

  const buyer = await createUser({ firstName: "Grace", lastName: "Hopper" });
  const licences: Record<string, string> = {};
  for (const [key, row] of Object.entries({ reviewed, never, lapsed })) {
    const { subscription } = await createPaidSubscription(buyer.id, { type: "individual", animationId: row.id });
    licences[key] = subscription.id;
  }
  const admin = await createUser({ role: "admin" });
  return {
    sub,
    doctor,
    other,
    animations: { reviewed, never, lapsed },
    licences: licences as Record<"reviewed" | "never" | "lapsed", string>,
    buyerCookie: await sessionCookieFor(buyer.id),
    adminCookie: await sessionCookieFor(admin.id),
    adminToken: await accessTokenFor(admin.id),
  };
}

beforeAll(async () => {
  world = await createWorld();
});

/** A page's HTML as a browser gets it, without the comments React puts between adjacent texts. */
async function html(path: string, cookie?: string, extra: Record<string, string> = {}) {
  const res = await sendToApp(path, { headers: new Headers({ ...(cookie ? { Cookie: cookie } : {}), ...extra }) });
  expect(res.status, path).toBe(200);
  return res.body.toString("utf8").replaceAll("<!-- -->", "");
}

async function certificatePdf(licenceId: string) {
  const res = await sendToApp(`/licences/${licenceId}/certificate`, { headers: new Headers({ Cookie: world.buyerCookie }) });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/pdf");
  // pdfkit breaks a long line where it wraps: the words are compared without the breaks.
  return pdfText(res.body, "").replace(/\s+/g, " ");
}

/** Every place a buyer or visitor meets the animation: its page, its API answer, the embed, the certificate page and PDF. */
async function everyPlace(key: "reviewed" | "never" | "lapsed") {
  const animation = world.animations[key];
  const licence = world.licences[key];
  return {
    page: await html(`/animations/${animation.slug}`),
    api: (await callRoute(animationApi, `/api/animations/${animation.slug}`, { params: { slugOrId: animation.slug } })).body,
    // Framed as the licensee's preview on My Animations: the domain lock gives media to a frame only.
    embed: await html(`/embed/${animation.id}?licence=${licence}`, undefined, { Referer: `${appUrl()}/my-animations`, "Sec-Fetch-Dest": "iframe" }),
    certificatePage: await html(`/licences/${licence}/verify`),
    certificatePdf: await certificatePdf(licence),
  };
}

describe("the review claim follows the review record", () => {
  it("a current review: the exact sentence on the animation page, the embed and the certificate (page and PDF)", async () => {
    const places = await everyPlace("reviewed");
    expect(places.page).toContain(SENTENCE);
    expect(places.embed).toMatch(/<video [^>]*controls/);
    expect(places.embed).toContain(SENTENCE);
    expect(places.certificatePage).toContain(SENTENCE);
    expect(places.certificatePdf).toContain(SENTENCE);
    expect(places.api.medicalReview).toEqual({
      doctor: { id: world.doctor.id, slug: world.doctor.slug, name: "Dr. Ada Lind", specialty: "Orthopaedic Surgery" },
      reviewedAt: reviewedAt.toISOString(),
      nextReviewAt: nextReviewAt.toISOString(),
    });
  });

  it.each(["never", "lapsed"] as const)("%s reviewed: no verification claim on the page, the embed or the certificate", async (key) => {
    const places = await everyPlace(key);
    expect(places.api.medicalReview).toBeNull();
    // The doctor is still linked and shown, but nothing says they verified it.
    expect(places.page).toContain("Dr. Ada Lind");
    expect(places.embed).toMatch(/<video [^>]*controls/);
    for (const [place, text] of Object.entries({ ...places, api: JSON.stringify(places.api) })) {
      expect(text, place).not.toMatch(CLAIM);
    }
  });

  it("a review stops being claimed when its reviewer is no longer an active doctor", async () => {
    const n = crypto.randomUUID().slice(0, 8);
    const gone = await prisma.doctor.create({ data: { name: "Dr. Gone", slug: `gone-${n}`, specialty: "Orthopaedic Surgery", isActive: false } });
    const animation = await prisma.animation.create({
      data: {
        title: "Orphan Knee",
        slug: `orphan_knee_${n}`,
        description: "A knee.",
        categoryId: world.sub.id,
        doctors: { create: { doctorId: gone.id } },
        medicallyReviewedAt: reviewedAt,
        reviewDueAt: nextReviewAt,
        medicalReviewerId: gone.id,
      },
    });
    expect(await html(`/animations/${animation.slug}`)).not.toMatch(CLAIM);
  });

  it("the doctor's Verified Animations are those whose current review is theirs", async () => {
    const profile = await callRoute(doctorApi, `/api/doctors/${world.doctor.slug}`, { params: { slugOrId: world.doctor.slug } });
    const titles = profile.body.verifiedAnimations.map((a: { title: string }) => a.title);
    expect(titles).toContain("Reviewed Knee");
    expect(titles).not.toContain("Never Reviewed Knee");
    expect(titles).not.toContain("Lapsed Knee");
  });

  it("the home page says doctor-verified only when every published animation has a current review, and counts them", async () => {
    const published = await prisma.animation.count({ where: { isActive: true } });
    const current = await prisma.animation.count({ where: { isActive: true, medicalReviewer: { isActive: true }, reviewDueAt: { gt: new Date() } } });
    expect(current).toBeLessThan(published);
    const some = await html("/");
    expect(some).toContain("Most Advanced Medical Animations</h1>");
    expect(some).not.toMatch(/doctor-verified/i);
    expect(some).toContain(`${current} of ${published} animations medically reviewed`);
  });
});

describe("recording a review on the admin screen", () => {
  const post = (animationId: string, form: Record<string, string>) =>
    callRoute(medicalScreen, `/admin/animations/${animationId}/medical`, { form: { intent: "review", ...form }, cookie: world.adminCookie });

  it("needs the reviewing doctor, one of the animation's own", async () => {
    const { id } = world.animations.never;
    const day = reviewedAt.toISOString().slice(0, 10);
    const missing = await post(id, { reviewedAt: day });
    expect(missing.status).toBe(400);
    expect(missing.body.result.error.reviewerId).toEqual([CHOOSE_REVIEWER]);
    const stranger = await post(id, { reviewedAt: day, reviewerId: world.other.id });
    expect(stranger.status).toBe(400);
    expect(stranger.body.result.error.reviewerId).toEqual([REVIEWER_NOT_LINKED]);
    expect((await prisma.animation.findUniqueOrThrow({ where: { id } })).medicallyReviewedAt).toBeNull();
  });

  it("a recorded review is what the page then says; the screen shows the sentence the pages print", async () => {
    const n = crypto.randomUUID().slice(0, 8);
    const animation = await prisma.animation.create({
      data: {
        title: "Fresh Knee",
        slug: `fresh_knee_${n}`,
        description: "A knee.",
        categoryId: world.sub.id,
        doctors: { create: { doctorId: world.doctor.id } },
      },
    });
    const day = reviewedAt.toISOString().slice(0, 10);
    const saved = await post(animation.id, { reviewerId: world.doctor.id, reviewedAt: day, reviewDueAt: nextReviewAt.toISOString().slice(0, 10) });
    expect(saved.status).toBe(302);
    expect(await html(`/animations/${animation.slug}`)).toContain(SENTENCE);
    const screen = await callRoute(medicalScreen, `/admin/animations/${animation.id}/medical`, { cookie: world.adminCookie });
    expect(screen.body.animation.current).toMatchObject({ doctor: { name: "Dr. Ada Lind" }, reviewedAt: reviewedAt.toISOString() });
  });
});

describe("require_medical_review: publishing needs a current review", () => {
  const publish = (id: string, action: "publish" | "unpublish") =>
    callRoute(publishApi, `/api/admin/animations/${id}/${action}`, { method: "POST", params: { id }, token: world.adminToken });
  const noReview = (title: string) => `Cannot publish “${title}” yet: it has no current medical review.`;
  // The settings screen through the app's front door, as the owner's browser without JavaScript.
  const settingsPage = async () => (await sendToApp("/admin/settings", { headers: new Headers({ Cookie: world.adminCookie }) })).body.toString("utf8");
  const postSettings = (fields: Record<string, string>) =>
    sendToApp("/admin/settings", {
      method: "POST",
      headers: new Headers({ "Content-Type": "application/x-www-form-urlencoded", Origin: new URL(appUrl()).origin, Cookie: world.adminCookie }),
      body: new URLSearchParams({ platformName: "Medanim", annualPrice: "99", ...fields }).toString(),
    });

  it("is on by default; off (the settings form, without JavaScript), a processed animation without a review is published", async () => {
    expect(await settingsPage()).toMatch(/<input[^>]*name="requireMedicalReview"[^>]*checked=""/);
    const { id, title } = world.animations.never;
    expect((await publish(id, "unpublish")).body.isActive).toBe(false);
    expect((await publish(id, "publish")).body.message).toBe(noReview(title));
    expect((await postSettings({})).status).toBe(302);
    expect(await settingsPage()).not.toMatch(/<input[^>]*name="requireMedicalReview"[^>]*checked=""/);
    const published = await publish(id, "publish");
    expect(published.status).toBe(200);
    expect(published.body.isActive).toBe(true);
  });

  it("on (the settings form, without JavaScript): the API and the admin list refuse with a 409 and the reason; a reviewed one is published", async () => {
    const saved = await callRoute(settingsScreen, "/admin/settings", {
      form: { platformName: "Medanim", annualPrice: "99", requireMedicalReview: "on" },
      cookie: world.adminCookie,
    });
    expect(saved.status).toBe(302);
    expect((await callRoute(settingsScreen, "/admin/settings", { cookie: world.adminCookie })).body.requireMedicalReview).toBe("on");

    for (const key of ["never", "lapsed"] as const) {
      const { id, title } = world.animations[key];
      await publish(id, "unpublish");
      const refused = await publish(id, "publish");
      expect(refused.status, key).toBe(409);
      expect(refused.body.message).toBe(noReview(title));
      const fromList = await callRoute(listScreen, "/admin/animations", { form: { intent: "publish", id }, cookie: world.adminCookie });
      expect(fromList.status).toBe(409);
      expect(fromList.body.toast).toEqual({ title: "Failed to update animation", description: noReview(title), type: "error" });
      expect((await prisma.animation.findUniqueOrThrow({ where: { id } })).isActive, key).toBe(false);
    }

    const { id } = world.animations.reviewed;
    await publish(id, "unpublish");
    expect((await publish(id, "publish")).status).toBe(200);
    const fromList = await callRoute(listScreen, "/admin/animations", { form: { intent: "unpublish", id }, cookie: world.adminCookie });
    expect(fromList.status).toBe(302);
    expect((await callRoute(listScreen, "/admin/animations", { form: { intent: "publish", id }, cookie: world.adminCookie })).status).toBe(302);
    expect((await prisma.animation.findUniqueOrThrow({ where: { id } })).isActive).toBe(true);
  });

  it("a new animation starts as a draft whatever the setting; the setting's API refuses a value that is not a flag", async () => {
    const put = await callRoute(settingApi, "/api/settings/require_medical_review", {
      method: "PUT",
      json: { value: true },
      params: { key: "require_medical_review" },
      token: world.adminToken,
    });
    expect(put.status).toBe(200);
    const bad = await callRoute(settingApi, "/api/settings/require_medical_review", {
      method: "PUT",
      json: { value: "sometimes" },
      params: { key: "require_medical_review" },
      token: world.adminToken,
    });
    expect(bad.status).toBe(400);
    const [cover, video, download] = await Promise.all([
      storeFile("cover", "jpg", "image/jpeg"),
      storeFile("video", "mp4", "video/mp4"),
      storeFile("download", "zip", "application/zip"),
    ]);
    const created = await callRoute(animationsApi, "/api/animations", {
      json: {
        title: `Draft Knee ${crypto.randomUUID().slice(0, 6)}`,
        description: "A knee.",
        coverImage: cover.path,
        fullVideo: video.path,
        downloadFile: download.path,
        individualPrice: 199,
        categoryId: world.sub.id,
        doctorIds: [world.doctor.id],
      },
      token: world.adminToken,
    });
    expect(created.status).toBe(201);
    expect(created.body.isActive).toBe(false);
  });
});
