import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CACHES, type CacheName, cachesDroppedBy, FACTS, registerCache, tableWrittenBy } from "~/lib/cache-registry.server.ts";
import { getDb, prisma } from "~/lib/db.server.ts";
import { deleteObject, saveObject } from "~/lib/storage.server.ts";
import * as myAnimations from "~/routes/account/my-animations.tsx";
import * as practicePage from "~/routes/account/practice.tsx";
import * as purchase from "~/routes/account/purchase.tsx";
import * as medicalScreen from "~/routes/admin/animation-medical.tsx";
import * as animationsScreen from "~/routes/admin/animations.tsx";
import * as categoryForm from "~/routes/admin/category-form.tsx";
import * as doctorForm from "~/routes/admin/doctor-form.tsx";
import * as faqForm from "~/routes/admin/faq-form.tsx";
import * as pageForm from "~/routes/admin/page-form.tsx";
import * as animationApi from "~/routes/api/animations.slug.ts";
import * as categoryApi from "~/routes/api/categories.slug.ts";
import * as signIn from "~/routes/api/auth.login.ts";
import * as profileApi from "~/routes/api/auth.profile.ts";
import * as settingApi from "~/routes/api/settings.key.ts";
import * as testCheckout from "~/routes/checkout/test.tsx";
import { deleteAnimation } from "~/services/catalogue/animation-admin.server.ts";
import { claimJob, queueTranscode, runTranscodeJob } from "~/services/media/media-jobs.server.ts";
import { createAnimation, createCatalogue, objectPath } from "../helpers/catalogue.ts";
import { accessTokenFor, createUser, sessionCookieFor, TEST_PASSWORD } from "../helpers/factories.ts";
import { callRoute } from "../helpers/route.ts";

// Generated from the cache registry (cache-registry.server.ts): for every table some cache
// depends on, a write through the app (the route, or the service or job the route runs) must
// drop every cache listed against it. A dependency added to the registry without a writer here
// fails the first case, so it is covered the day it is added. What a dropped cache then shows is
// proven through the pages in cache-invalidation.test.ts and page-cache-invalidation.test.ts.

type World = {
  catalogue: Awaited<ReturnType<typeof createCatalogue>>;
  admin: { id: string; email: string };
  cookie: string;
  token: string;
};

const VTT = "WEBVTT\n\n00:00.000 --> 00:01.000\nHello\n";
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-cache-registry-"));

function multipart(fields: Record<string, string>) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  return form;
}

async function member() {
  const user = await createUser();
  return { user, cookie: await sessionCookieFor(user.id) };
}

/** A test-mode purchase of one animation, as a member makes it. */
async function buy(cookie: string, slug: string) {
  const started = await callRoute(purchase, `/purchase/individual/${slug}`, { form: { intent: "checkout" }, params: { idOrSlug: slug }, cookie });
  const checkoutId = /\/checkout\/test\/([0-9a-f-]{36})$/.exec(started.location ?? "")?.[1];
  expect(checkoutId).toBeDefined();
  await callRoute(testCheckout, `/checkout/test/${checkoutId}`, { form: { intent: "pay" }, params: { checkoutId: checkoutId! }, cookie });
}

/** One write through the app per table, and per table whose deletion alone matters. */
const WRITERS: Record<string, (world: World) => Promise<unknown>> = {
  Animation: async ({ catalogue, cookie }) =>
    expect((await callRoute(animationsScreen, "/admin/animations", { form: { intent: "unpublish", id: catalogue.tummy.id }, cookie })).status).toBe(302),
  // The service its route calls: the route asks for a second factor confirmed minutes ago, which
  // step-up.test.ts proves; the delete's statements are the same either way.
  "DELETE Animation": async ({ admin, catalogue }) => {
    const doomed = await createAnimation({ title: `Doomed ${crypto.randomBytes(3).toString("hex")}`, categoryId: catalogue.facial.id });
    await deleteAnimation(admin, doomed.id);
  },
  Category: async ({ catalogue, cookie }) => {
    const body = catalogue.body;
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
  },
  "DELETE Category": async ({ catalogue, token }) => {
    const doomed = await prisma.category.create({
      data: { name: "Doomed", slug: `doomed-${crypto.randomBytes(3).toString("hex")}`, parentId: catalogue.plastic.id },
    });
    const deleted = await callRoute(categoryApi, `/api/categories/${doomed.id}`, { method: "DELETE", params: { slugOrId: doomed.id }, token });
    expect(deleted.status).toBe(200);
  },
  Doctor: async ({ catalogue, cookie }) => {
    const doctor = catalogue.smith;
    const saved = await callRoute(doctorForm, `/admin/doctors/${doctor.id}`, {
      method: "POST",
      body: multipart({ name: doctor.name, slug: doctor.slug, specialty: "Facial Plastic Surgeon", description: doctor.description ?? "", isActive: "on" }),
      cookie,
    });
    expect(saved.status).toBe(302);
  },
  AnimationDoctor: async ({ catalogue, token }) => {
    const animation = catalogue.facelift;
    const put = await callRoute(animationApi, `/api/animations/${animation.id}`, {
      method: "PUT",
      json: {
        title: animation.title,
        description: animation.description,
        coverImage: animation.coverImage,
        fullVideo: animation.fullVideo,
        downloadFile: animation.downloadFile,
        individualPrice: "299",
        duration: animation.duration,
        categoryId: catalogue.facial.id,
        slug: animation.slug,
        doctorIds: [catalogue.smith.id, catalogue.lonely.id],
      },
      token,
    });
    expect(put.status).toBe(200);
  },
  // A set and its renditions are written by the media pipeline's job, as the queue's worker runs it.
  MediaSet: transcode,
  MediaRendition: transcode,
  AnimationCaption: async ({ catalogue, cookie }) => {
    const id = catalogue.rhinoplasty.id;
    const form = new FormData();
    form.append("language", "en");
    form.append("file", new File([VTT], "en.vtt", { type: "text/vtt" }));
    const saved = await callRoute(medicalScreen, `/admin/animations/${id}/medical`, { method: "POST", body: form, params: { id }, cookie });
    expect(saved.status).toBeLessThan(400);
  },
  AppSetting: async ({ token }) =>
    expect(
      (await callRoute(settingApi, "/api/settings/support_phone", { method: "PUT", json: { value: "+1 555 0177" }, params: { key: "support_phone" }, token }))
        .status,
    ).toBe(200),
  Page: async ({ cookie }) => {
    const slug = `registry-${crypto.randomBytes(3).toString("hex")}`;
    expect(
      (await callRoute(pageForm, "/admin/pages/new", { form: { title: "Registry", slug, content: "<p>x</p>", type: "legal", isPublished: "on" }, cookie }))
        .status,
    ).toBe(302);
  },
  Faq: async ({ cookie }) =>
    expect(
      (
        await callRoute(faqForm, "/admin/faqs/new", {
          form: { question: `Registry ${crypto.randomBytes(3).toString("hex")}?`, answer: "Yes.", isActive: "on" },
          cookie,
        })
      ).status,
    ).toBe(302),
  // The app has no screen for FAQ categories: the seed writes them, through the same client.
  FaqCategory: () =>
    prisma.faqCategory.create({
      data: { name: `Registry ${crypto.randomBytes(3).toString("hex")}`, slug: `registry-${crypto.randomBytes(3).toString("hex")}` },
    }),
  Subscription: async ({ catalogue }) => buy((await member()).cookie, catalogue.rhinoplasty.slug),
  // Founding a practice makes its owner a member (joining, leaving and removal write the same row).
  PracticeMember: async () => {
    const { cookie } = await member();
    const founded = await callRoute(practicePage, "/practice", {
      form: { intent: "create", legalName: `Registry Clinic ${crypto.randomBytes(3).toString("hex")}`, address: "1 Main St", country: "US" },
      cookie,
    });
    expect(founded.status).toBe(302);
  },
  // A practice's row: its logo is a public object once attached (object access); founding writes the row as a logo change does.
  Practice: async () => {
    const { cookie } = await member();
    const founded = await callRoute(practicePage, "/practice", {
      form: { intent: "create", legalName: `Logo Clinic ${crypto.randomBytes(3).toString("hex")}`, address: "2 Main St", country: "US" },
      cookie,
    });
    expect(founded.status).toBe(302);
  },
  // A new version of the licence terms has no screen yet (decision 028): written as its migration would.
  LicenceTerms: async () => {
    const latest = await prisma.licenceTerms.findFirstOrThrow({ orderBy: { version: "desc" } });
    await prisma.licenceTerms.create({ data: { ...latest, version: latest.version + 1, effectiveFrom: new Date(), createdAt: undefined } });
  },
  LicenceEmbedDomain: async ({ catalogue }) => {
    const { user, cookie } = await member();
    await buy(cookie, catalogue.rhinoplasty.slug);
    const licence = await prisma.subscription.findFirstOrThrow({ where: { userId: user.id, status: "active" } });
    expect(
      (await callRoute(myAnimations, "/my-animations", { form: { intent: "add-domain", licenceId: licence.id, host: "clinic.example" }, cookie })).status,
    ).toBe(302);
  },
  User: async () => {
    const user = await createUser();
    const profile = await callRoute(profileApi, "/api/auth/profile", {
      method: "PUT",
      json: { firstName: "Renamed", lastName: user.lastName, username: user.username, email: user.email },
      token: await accessTokenFor(user.id),
    });
    expect(profile.status).toBe(200);
  },
  // A signed-in browser's session, as the sign-in form's action makes it (the factory calls the same service).
  Session: async () => sessionCookieFor((await createUser()).id),
  RefreshToken: async () => {
    const user = await createUser();
    expect((await callRoute(signIn, "/api/auth/login", { json: { email: user.email, password: TEST_PASSWORD } })).status).toBe(200);
  },
  // The upload route's service: an object's row is written as its bytes are stored.
  StoredObject: () => saveObject({ body: Buffer.from("registry"), contentType: "image/jpeg", kind: "cover" }),
};

async function transcode({ catalogue }: World) {
  const master = path.join(workDir, "master.mp4");
  if (!fs.existsSync(master)) {
    execFileSync("ffmpeg", [
      "-hide_banner",
      "-loglevel",
      "error",
      "-y",
      "-f",
      "lavfi",
      "-i",
      "testsrc2=duration=1:size=160x90:rate=25",
      "-c:v",
      "libx264",
      "-preset",
      "ultrafast",
      master,
    ]);
  }
  const stored = await saveObject({ body: fs.createReadStream(master), contentType: "video/mp4", kind: "video" });
  const animation = await createAnimation({
    title: `Transcoded ${crypto.randomBytes(3).toString("hex")}`,
    fullVideo: stored.path,
    previewVideo: objectPath(),
    categoryId: catalogue.facial.id,
  });
  const job = await queueTranscode(animation.id);
  const claimed = await claimJob(job!.id, "cache-registry-test");
  expect(await runTranscodeJob(claimed!, "cache-registry-test")).toBe("done");
}

/** Every dependency the registry names: "Table" for any write, "DELETE Table" for a delete alone. */
const DEPENDENCIES = [
  ...new Set(
    Object.values(CACHES).flatMap((deps) => [
      ...("tables" in deps ? deps.tables : []),
      ...("deletesOf" in deps ? deps.deletesOf.map((table) => `DELETE ${table}`) : []),
    ]),
  ),
].sort();

let world: World;
/** Drops seen per cache, from spies registered beside the caches' own drops. */
const dropped = new Map<CacheName, number>();
/** The tables the app's client wrote, as the statement hook reads them. */
const written: string[] = [];

beforeAll(async () => {
  const catalogue = await createCatalogue();
  const admin = await createUser({ role: "admin" });
  world = { catalogue, admin: { id: admin.id, email: admin.email }, cookie: await sessionCookieFor(admin.id), token: await accessTokenFor(admin.id) };
  for (const name of Object.keys(CACHES) as CacheName[]) registerCache(name, () => dropped.set(name, (dropped.get(name) ?? 0) + 1));
  (getDb().prisma as unknown as { $on(event: "query", cb: (e: { query: string }) => void): void }).$on("query", ({ query }) => {
    const write = tableWrittenBy(query);
    if (write) written.push(write.isDelete ? `DELETE ${write.table}` : write.table);
  });
});

afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

describe("the cache registry", () => {
  it("has a writer through the app for every table a cache depends on", () => {
    expect(DEPENDENCIES.filter((dependency) => !WRITERS[dependency])).toEqual([]);
  });

  it.each(DEPENDENCIES)(
    "%s: the write drops every cache that depends on it",
    async (dependency) => {
      const [table, kind] = dependency.startsWith("DELETE ") ? [dependency.slice(7), "delete" as const] : [dependency, "write" as const];
      dropped.clear();
      written.length = 0;
      await WRITERS[dependency]!(world);
      // The writer really wrote the table through the app's client (not only a neighbour of it).
      expect(written.some((w) => w === dependency || (kind === "write" && w === `DELETE ${table}`))).toBe(true);
      const missed = cachesDroppedBy(table, kind).filter((name) => !dropped.get(name));
      expect(missed, `${dependency} left these caches in place`).toEqual([]);
    },
    60_000,
  );

  it("a stored object removed (a named fact storage announces): its metadata is dropped", async () => {
    const stored = await saveObject({ body: Buffer.from("registry"), contentType: "image/jpeg", kind: "cover" });
    dropped.clear();
    await deleteObject(stored.id);
    const announced = Object.entries(CACHES).filter(([, deps]) => "facts" in deps && (deps.facts as readonly string[]).includes(FACTS.storedObjectRemoved));
    expect(announced.length).toBeGreaterThan(0);
    for (const [name] of announced) expect(dropped.get(name as CacheName)).toBeGreaterThan(0);
  });
});
