import * as myAnimations from "~/routes/account/my-animations.tsx";
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { resetEnv } from "~/lib/env.server.ts";
import { formatLongDate } from "~/lib/format.ts";
import { dropAllCaches } from "~/lib/cache-registry.server.ts";
import { saveObject } from "~/lib/storage.server.ts";
import * as purchase from "~/routes/account/purchase.tsx";
import * as medicalScreen from "~/routes/admin/animation-medical.tsx";
import * as animationsScreen from "~/routes/admin/animations.tsx";
import * as categoryForm from "~/routes/admin/category-form.tsx";
import * as doctorForm from "~/routes/admin/doctor-form.tsx";
import * as faqForm from "~/routes/admin/faq-form.tsx";
import * as pageForm from "~/routes/admin/page-form.tsx";
import * as settingsScreen from "~/routes/admin/settings.tsx";
import * as animationsApi from "~/routes/api/animations.ts";
import * as animationApi from "~/routes/api/animations.slug.ts";
import * as signIn from "~/routes/api/auth.login.ts";
import * as profileApi from "~/routes/api/auth.profile.ts";
import * as mainCategories from "~/routes/api/categories.main.ts";
import * as doctorApi from "~/routes/api/doctors.slug.ts";
import * as faqsApi from "~/routes/api/faqs.ts";
import * as pagesOfType from "~/routes/api/pages.type.ts";
import * as publicSettings from "~/routes/api/settings.ts";
import * as settingApi from "~/routes/api/settings.key.ts";
import * as testCheckout from "~/routes/checkout/test.tsx";
import { claimJob, queueTranscode, runTranscodeJob } from "~/services/media/media-jobs.server.ts";
import { sendToApp } from "../helpers/app.ts";
import { writeOnAnotherInstance } from "../helpers/another-instance.ts";
import { createCatalogue, objectPath } from "../helpers/catalogue.ts";
import { accessTokenFor, createUser, sessionCookieFor, TEST_PASSWORD } from "../helpers/factories.ts";
import { sample } from "../helpers/prometheus-text.ts";
import { callRoute } from "../helpers/route.ts";

// Every public write is visible to the next anonymous request. The rendered-page and
// public-JSON cache is on (PAGE_CACHE_MS) and so are the data caches (CATALOGUE_CACHE_MS), both
// for a minute: only an invalidation can make a write visible. Each case asks an anonymous
// visitor's page (the HTML document) and public call once to fill the caches, writes as an admin
// through the front door (the /admin form as a browser posts it, or the admin /api call), and
// asks again.

const MINUTE = "60000";
const METRICS_TOKEN = "page-cache-invalidation-0123456789";

let catalogue: Awaited<ReturnType<typeof createCatalogue>>;
let cookie: string;
let token: string;

/** An anonymous visitor's document request: no cookie, no Authorization. */
async function visit(url: string) {
  const response = await sendToApp(url, {});
  expect(response.status, url).toBe(200);
  return response.body.toString("utf8");
}

/**
 * Visits twice and checks the second answer was the kept one: a rendered document carries a
 * nonce of its own, so only a kept one comes back byte for byte.
 */
async function visitKept(url: string) {
  const first = await visit(url);
  expect(await visit(url), `${url} was not kept`).toBe(first);
  return first;
}

/** An anonymous visitor's public call. */
async function read(mod: Parameters<typeof callRoute>[0], url: string) {
  const result = await callRoute(mod, url);
  expect(result.status, url).toBe(200);
  return result.body;
}

/** Public calls answered from the page cache so far, as /metrics reports them. */
async function keptJsonAnswers() {
  const scraped = await sendToApp("/metrics", { headers: new Headers({ Authorization: `Bearer ${METRICS_TOKEN}` }) });
  return sample(scraped.body.toString("utf8"), "medanim_cache_lookups_total", { prefix: "public-json", result: "hit" }) ?? 0;
}

/** Reads twice and checks the second answer came from the page cache. */
async function readKept(mod: Parameters<typeof callRoute>[0], url: string) {
  const body = await read(mod, url);
  const before = await keptJsonAnswers();
  expect(await read(mod, url)).toEqual(body);
  expect(await keptJsonAnswers(), `${url} was not kept`).toBe(before + 1);
  return body;
}

function useCaches({ catalogue: catalogueMs }: { catalogue: string }) {
  process.env.PAGE_CACHE_MS = MINUTE;
  process.env.CATALOGUE_CACHE_MS = catalogueMs;
  process.env.METRICS_TOKEN = METRICS_TOKEN;
  resetEnv();
}

function cardsOn(html: string) {
  return html.split('data-testid="animation-card"').length - 1;
}

/** A multipart body as the doctor and category forms send it (they take an upload). */
function multipart(fields: Record<string, string>) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  return form;
}

beforeAll(async () => {
  useCaches({ catalogue: MINUTE });
  dropAllCaches();
  catalogue = await createCatalogue();
  const admin = await createUser({ role: "admin" });
  cookie = await sessionCookieFor(admin.id);
  token = await accessTokenFor(admin.id);
});

afterAll(() => {
  delete process.env.PAGE_CACHE_MS;
  delete process.env.CATALOGUE_CACHE_MS;
  delete process.env.METRICS_TOKEN;
  resetEnv();
  dropAllCaches();
});

describe("the page cache is on", () => {
  it("a row written by another instance stays unseen by visitors (the data caches off), while a signed-in admin sees it", async () => {
    // The data caches off for this case: only the page cache can keep the old answer.
    useCaches({ catalogue: "0" });
    try {
      const doctor = catalogue.lonely;
      expect(await visitKept(`/doctors/${doctor.slug}`)).toContain("Cardiologist");
      expect(await readKept(doctorApi, `/api/doctors/${doctor.slug}`)).toMatchObject({ specialty: "Cardiologist" });
      await writeOnAnotherInstance(`UPDATE "Doctor" SET "specialty" = 'Electrophysiologist' WHERE "id" = $1::uuid`, doctor.id);

      expect(await visit(`/doctors/${doctor.slug}`)).not.toContain("Electrophysiologist");
      expect(await read(doctorApi, `/api/doctors/${doctor.slug}`)).toMatchObject({ specialty: "Cardiologist" });
      const signedIn = await sendToApp(`/doctors/${doctor.slug}`, { headers: new Headers({ Cookie: cookie }) });
      expect(signedIn.body.toString("utf8")).toContain("Electrophysiologist");
    } finally {
      useCaches({ catalogue: MINUTE });
    }
  });
});

describe("an admin's write is visible to the next anonymous request", () => {
  it("an animation renamed (PUT /api/animations/{id}): its page and its call", async () => {
    const animation = catalogue.facelift;
    expect(await visitKept(`/animations/${animation.slug}`)).toContain("Facelift");
    expect(await readKept(animationApi, `/api/animations/${animation.slug}`)).toMatchObject({ title: "Facelift" });

    const put = await callRoute(animationApi, `/api/animations/${animation.id}`, {
      method: "PUT",
      json: {
        title: "Facelift, Deep Plane",
        description: animation.description,
        coverImage: animation.coverImage,
        fullVideo: animation.fullVideo,
        downloadFile: animation.downloadFile,
        individualPrice: "299",
        duration: animation.duration,
        categoryId: catalogue.facial.id,
        slug: animation.slug,
        doctorIds: [catalogue.smith.id],
      },
      token,
    });
    expect(put.status).toBe(200);

    expect(await visit(`/animations/${animation.slug}`)).toContain("Facelift, Deep Plane");
    expect(await read(animationApi, `/api/animations/${animation.slug}`)).toMatchObject({ title: "Facelift, Deep Plane" });
  });

  it("an animation unpublished (the /admin/animations list's form): gone from its page, its call and its category's list", async () => {
    const animation = catalogue.tummy;
    const listing = `/category/${catalogue.plastic.slug}/${catalogue.body.slug}`;
    expect(await visitKept(`/animations/${animation.slug}`)).toContain("Tummy Tuck");
    expect(await visitKept(listing)).toContain("Tummy Tuck");
    await readKept(animationApi, `/api/animations/${animation.slug}`);

    const unpublished = await callRoute(animationsScreen, "/admin/animations", { form: { intent: "unpublish", id: animation.id }, cookie });
    expect(unpublished.status).toBe(302);

    expect((await sendToApp(`/animations/${animation.slug}`, {})).status).toBe(404);
    expect((await callRoute(animationApi, `/api/animations/${animation.slug}`)).status).toBe(404);
    expect(await visit(listing)).not.toContain("Tummy Tuck");
  });

  it("a medical review recorded (/admin/animations/{id}/medical form): the animation's page and its call", async () => {
    const animation = catalogue.rhinoplasty;
    const reviewedAt = new Date(Date.now() - 2 * 24 * 3600_000).toISOString().slice(0, 10);
    expect(await visitKept(`/animations/${animation.slug}`)).not.toContain(formatLongDate(reviewedAt));
    expect(await readKept(animationApi, `/api/animations/${animation.slug}`)).not.toMatchObject({
      medicalReview: { reviewedAt: expect.stringMatching(`^${reviewedAt}`) },
    });

    const saved = await callRoute(medicalScreen, `/admin/animations/${animation.id}/medical`, {
      form: { intent: "review", reviewerId: catalogue.smith.id, reviewedAt },
      cookie,
    });
    expect(saved.status).toBe(302);

    expect(await visit(`/animations/${animation.slug}`)).toContain(formatLongDate(reviewedAt));
    expect(await read(animationApi, `/api/animations/${animation.slug}`)).toMatchObject({
      medicalReview: { reviewedAt: expect.stringMatching(`^${reviewedAt}`) },
    });
  });

  it("a category renamed (/admin/categories/{id} form): the main category's page and the main categories call", async () => {
    const body = catalogue.body;
    expect(await visitKept(`/category/${catalogue.plastic.slug}`)).toContain("Body Contouring");
    const before = (await readKept(mainCategories, "/api/categories/main")) as Array<{ subcategories: Array<{ name: string }> }>;
    expect(before.flatMap((c) => c.subcategories.map((s) => s.name))).toContain("Body Contouring");

    const saved = await callRoute(categoryForm, `/admin/categories/${body.id}`, {
      method: "POST",
      body: multipart({
        level: "sub",
        name: "Body Sculpting",
        slug: body.slug,
        parentId: catalogue.plastic.id,
        yearlyPrice: "",
        sortOrder: "2",
        isActive: "on",
      }),
      cookie,
    });
    expect(saved.status).toBe(302);

    expect(await visit(`/category/${catalogue.plastic.slug}`)).toContain("Body Sculpting");
    const after = (await read(mainCategories, "/api/categories/main")) as Array<{ subcategories: Array<{ name: string }> }>;
    expect(after.flatMap((c) => c.subcategories.map((s) => s.name))).toContain("Body Sculpting");
  });

  it("a doctor edited (/admin/doctors/{id} form): the profile page and its call", async () => {
    const doctor = catalogue.smith;
    expect(await visitKept(`/doctors/${doctor.slug}`)).toContain("Plastic Surgeon");
    expect(await readKept(doctorApi, `/api/doctors/${doctor.slug}`)).toMatchObject({ specialty: "Plastic Surgeon" });

    const saved = await callRoute(doctorForm, `/admin/doctors/${doctor.id}`, {
      method: "POST",
      body: multipart({ name: doctor.name, slug: doctor.slug, specialty: "Facial Plastic Surgeon", description: doctor.description ?? "", isActive: "on" }),
      cookie,
    });
    expect(saved.status).toBe(302);

    expect(await visit(`/doctors/${doctor.slug}`)).toContain("Facial Plastic Surgeon");
    expect(await read(doctorApi, `/api/doctors/${doctor.slug}`)).toMatchObject({ specialty: "Facial Plastic Surgeon" });
  });

  it("a content page edited (/admin/pages/{id} form): the page, the footer's legal links and /api/pages/type/legal", async () => {
    const slug = `cookie-policy-${crypto.randomBytes(3).toString("hex")}`;
    // Created through the form too: the footer's links are cached, a row added behind the app's back would stay unseen.
    const created = await callRoute(pageForm, "/admin/pages/new", {
      form: { title: "Cookie Policy", slug, content: "<p>We use two cookies.</p>", type: "legal", isPublished: "on" },
      cookie,
    });
    expect(created.status).toBe(302);
    const page = await prisma.page.findUniqueOrThrow({ where: { slug } });
    const titles = async (ask = read) => ((await ask(pagesOfType, "/api/pages/type/legal")) as Array<{ title: string }>).map((p) => p.title);
    expect(await visitKept(`/pages/${slug}`)).toContain("We use two cookies.");
    expect(await visitKept("/help")).toContain("Cookie Policy");
    expect(await titles(readKept)).toContain("Cookie Policy");

    const saved = await callRoute(pageForm, `/admin/pages/${page.id}`, {
      form: { title: "Cookie Notice", slug, content: "<p>We use three cookies.</p>", type: "legal", isPublished: "on" },
      cookie,
    });
    expect(saved.status).toBe(302);

    expect(await visit(`/pages/${slug}`)).toContain("We use three cookies.");
    expect(await visit("/help")).toContain("Cookie Notice");
    expect(await titles()).toEqual(expect.arrayContaining(["Cookie Notice"]));
    expect(await titles()).not.toContain("Cookie Policy");
  });

  it("an FAQ added (/admin/faqs/new form): the Help Center and /api/faqs", async () => {
    const question = `Can I show the animations in my waiting room ${crypto.randomBytes(3).toString("hex")}?`;
    expect(await visitKept("/help")).not.toContain(question);
    expect(((await readKept(faqsApi, "/api/faqs")) as Array<{ question: string }>).map((f) => f.question)).not.toContain(question);

    const saved = await callRoute(faqForm, "/admin/faqs/new", { form: { question, answer: "Yes, with a licence.", isActive: "on" }, cookie });
    expect(saved.status).toBe(302);

    expect(await visit("/help")).toContain(question);
    expect(((await read(faqsApi, "/api/faqs")) as Array<{ question: string }>).map((f) => f.question)).toContain(question);
  });

  it("a setting (/admin/settings' public details form): the contact page and /api/settings", async () => {
    expect(await visitKept("/contact")).not.toContain("+44 20 7946 0000");
    expect(await readKept(publicSettings, "/api/settings")).not.toContainEqual({ key: "support_phone", value: "+44 20 7946 0000" });

    const saved = await callRoute(settingsScreen, "/admin/settings", {
      form: {
        intent: "public-details",
        supportEmail: "help@clinic-animations.example",
        supportPhone: "+44 20 7946 0000",
        supportAddress: "1 Harley Street, London",
        testimonialQuote: "",
        testimonialAuthor: "",
      },
      cookie,
    });
    expect(saved.status).toBe(302);

    expect(await visit("/contact")).toContain("+44 20 7946 0000");
    expect(await read(publicSettings, "/api/settings")).toContainEqual({ key: "support_phone", value: "+44 20 7946 0000" });
  });

  it("a setting the catalogue reads (PUT /api/settings/homepage_animations_per_page): the home page's list and /api/animations", async () => {
    const cardsBefore = cardsOn(await visitKept("/"));
    const before = (await readKept(animationsApi, "/api/animations?light=true")) as { animations: unknown[] };
    expect(before.animations.length).toBeGreaterThan(1);

    const put = await callRoute(settingApi, "/api/settings/homepage_animations_per_page", {
      method: "PUT",
      json: { value: "1" },
      params: { key: "homepage_animations_per_page" },
      token,
    });
    expect(put.status).toBe(200);

    const after = (await read(animationsApi, "/api/animations?light=true")) as { animations: unknown[]; hasMore: boolean };
    expect(after).toMatchObject({ animations: [expect.anything()], hasMore: true });
    // The "New" shelf keeps its cards: the list under it shrinks to one.
    expect(cardsOn(await visit("/"))).toBe(cardsBefore - before.animations.length + 1);
  });
});

describe("a member's writes change no public page and leave the kept answers in place", () => {
  it("a sign-in, a profile edit, a test-mode purchase and a licence's embed site", async () => {
    const home = await visitKept("/");
    const animationPage = await visitKept(`/animations/${catalogue.rhinoplasty.slug}`);
    await readKept(mainCategories, "/api/categories/main");

    const member = await createUser();
    const signedIn = await callRoute(signIn, "/api/auth/login", { json: { email: member.email, password: TEST_PASSWORD } });
    expect(signedIn.status).toBe(200);
    const memberToken = signedIn.body.accessToken as string;
    const profile = await callRoute(profileApi, "/api/auth/profile", {
      method: "PUT",
      json: { firstName: "Renamed", lastName: member.lastName, username: member.username, email: member.email },
      token: memberToken,
    });
    expect(profile.status).toBe(200);
    const memberCookie = await sessionCookieFor(member.id);
    const started = await callRoute(purchase, `/purchase/individual/${catalogue.rhinoplasty.slug}`, {
      form: { intent: "checkout" },
      params: { idOrSlug: catalogue.rhinoplasty.slug },
      cookie: memberCookie,
    });
    const checkoutId = /\/checkout\/test\/([0-9a-f-]{36})$/.exec(started.location ?? "")?.[1];
    expect(checkoutId).toBeDefined();
    await callRoute(testCheckout, `/checkout/test/${checkoutId}`, { form: { intent: "pay" }, params: { checkoutId: checkoutId! }, cookie: memberCookie });
    expect(await prisma.subscription.count({ where: { userId: member.id, status: "active" } })).toBe(1);
    // The licence's embed sites: its own cache drops, the pages stay.
    const licence = await prisma.subscription.findFirstOrThrow({ where: { userId: member.id, status: "active" } });
    const added = await callRoute(myAnimations, "/my-animations", {
      form: { intent: "add-domain", licenceId: licence.id, host: "clinic.example" },
      cookie: memberCookie,
    });
    expect(added.status).toBe(302);
    expect(await prisma.licenceEmbedDomain.count({ where: { subscriptionId: licence.id } })).toBe(1);

    expect(await visit("/")).toBe(home);
    expect(await visit(`/animations/${catalogue.rhinoplasty.slug}`)).toBe(animationPage);
    const before = await keptJsonAnswers();
    await read(mainCategories, "/api/categories/main");
    expect(await keptJsonAnswers()).toBe(before + 1);
  });
});

describe("the media pipeline's writes are visible to the next anonymous request", () => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-page-cache-"));
  afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

  it("a transcode finishing: the animation's page and call show its player, resolution and formats", async () => {
    const master = path.join(workDir, "master.mp4");
    execFileSync("ffmpeg", [
      "-hide_banner",
      "-loglevel",
      "error",
      "-y",
      "-f",
      "lavfi",
      "-i",
      "testsrc2=duration=2:size=320x180:rate=25",
      "-c:v",
      "libx264",
      "-preset",
      "ultrafast",
      master,
    ]);
    const stored = await saveObject({ body: fs.createReadStream(master), contentType: "video/mp4", kind: "video" });
    const slug = `transcoded_${crypto.randomBytes(3).toString("hex")}`;
    // With a preview of its own, so the set's arrival at the end of the run is the only write (no early preview).
    const animation = await prisma.animation.create({
      data: { title: "Freshly Transcoded", slug, description: "x", fullVideo: stored.path, previewVideo: objectPath(), categoryId: catalogue.facial.id },
    });

    // Before its set, the package holds the master as uploaded (its frame not yet probed here).
    expect(await visitKept(`/animations/${slug}`)).toMatch(/data-testid="animation-formats">MP4</);
    expect(await readKept(animationApi, `/api/animations/${slug}`)).toMatchObject({ playback: null, media: { resolution: null, formats: "MP4" } });

    // As the queue's worker runs it (job-workers.server.ts: runMediaJob claims, then runs).
    const job = await queueTranscode(animation.id);
    const claimed = await claimJob(job!.id, "page-cache-test");
    expect(await runTranscodeJob(claimed!, "page-cache-test")).toBe("done");

    expect(await visit(`/animations/${slug}`)).toMatch(/data-testid="animation-formats">MP4 180p and WebM 180p</);
    expect(await read(animationApi, `/api/animations/${slug}`)).toMatchObject({
      playback: { isPreview: true },
      media: { resolution: "180p", formats: "MP4 180p and WebM 180p" },
    });
  }, 120_000);
});
