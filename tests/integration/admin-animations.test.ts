import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import * as listScreen from "~/routes/admin/animations.tsx";
import * as formScreen from "~/routes/admin/animation-form.tsx";
import * as animationsApi from "~/routes/api/animations.ts";
import * as animationApi from "~/routes/api/animations.slug.ts";
import { HAS_ACTIVE_LICENCES, SLUG_TAKEN } from "~/services/catalogue/animation-admin.server.ts";
import { animationSlugFromTitle, DURATION_MAX, DURATION_MIN } from "~/validation/admin-catalogue.ts";
import { accessTokenFor, createPaidSubscription, createUser, sessionCookieFor } from "../helpers/factories.ts";
import { callRoute } from "../helpers/route.ts";
import { fileBytes, storeFile } from "./media-helpers.ts";
import { makeReady } from "../helpers/publishing.ts";

// Animations in the back office: the product's messages and rules (slug with underscores, duration
// 1–3600 default 120, doctors as doctorIds), uploads checked and confirmed, the preview job, the
// public page reflecting an edit at once, publish/unpublish, delete rules, audit rows.

async function admin() {
  const user = await createUser({ role: "admin" });
  return { user, token: await accessTokenFor(user.id), cookie: await sessionCookieFor(user.id) };
}

const unique = () => Math.random().toString(36).slice(2, 8);

async function media() {
  const [cover, video, download] = await Promise.all([
    storeFile("cover", "jpg", "image/jpeg"),
    storeFile("video", "mp4", "video/mp4"),
    storeFile("download", "zip", "application/zip"),
  ]);
  return { coverImage: cover.path, fullVideo: video.path, downloadFile: download.path };
}

async function category() {
  const main = await prisma.category.create({ data: { name: `Main ${unique()}`, slug: `main-${unique()}` } });
  return prisma.category.create({ data: { name: `Sub ${unique()}`, slug: `sub-${unique()}`, parentId: main.id, yearlyPrice: 199 } });
}

describe("the slug rule", () => {
  it("lowercases, drops punctuation, turns spaces and hyphens into underscores", () => {
    expect(animationSlugFromTitle("Open Rhinoplasty: Reshaping the Nasal-Framework!")).toBe("open_rhinoplasty_reshaping_the_nasal_framework");
    expect(animationSlugFromTitle("  Knee -- Replacement  ")).toBe("knee_replacement");
  });
});

describe("POST /api/animations", () => {
  it("answers the product's messages for every required field and the duration bounds", async () => {
    const { token } = await admin();
    const empty = await callRoute(animationsApi, "/api/animations", { json: {}, token });
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toMatchObject({
      title: ["Title is required"],
      description: ["Description is required"],
      coverImage: ["Cover image is required"],
      fullVideo: ["Full video is required"],
      downloadFile: ["Download file is required"],
      individualPrice: ["Individual price is required"],
      categoryId: ["Category is required"],
    });
    const files = await media();
    const sub = await category();
    const base = { title: "T", description: "D", ...files, individualPrice: 299, categoryId: sub.id };
    expect((await callRoute(animationsApi, "/api/animations", { json: { ...base, duration: 0 }, token })).body.errors.duration).toEqual([DURATION_MIN]);
    expect((await callRoute(animationsApi, "/api/animations", { json: { ...base, duration: 3601 }, token })).body.errors.duration).toEqual([DURATION_MAX]);
    expect((await callRoute(animationsApi, "/api/animations", { json: { ...base, doctorIds: ["not-a-uuid"] }, token })).status).toBe(400);
  });

  it("creates with a made slug, duration 120 by default, doctors from doctorIds; the upload paths must be real uploads of their kind", async () => {
    const { token } = await admin();
    const sub = await category();
    const doctor = await prisma.doctor.create({ data: { name: "Dr. Kim", slug: `dr-kim-${unique()}`, specialty: "ENT" } });
    const files = await media();
    const wrongKind = await callRoute(animationsApi, "/api/animations", {
      json: { title: "X", description: "D", ...files, coverImage: files.fullVideo, individualPrice: "10", categoryId: sub.id },
      token,
    });
    expect(wrongKind.status).toBe(400);
    expect(Object.keys(wrongKind.body.errors)).toEqual(["coverImage"]);

    const title = `Septoplasty ${unique()}`;
    const created = await callRoute(animationsApi, "/api/animations", {
      json: { title, description: "Straightening the septum.", ...files, individualPrice: "149.5", categoryId: sub.id, doctorIds: [doctor.id] },
      token,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      title,
      slug: animationSlugFromTitle(title),
      duration: 120,
      individualPrice: 149.5,
      doctorIds: [doctor.id],
      doctors: [{ id: doctor.id }],
      // A draft until published (decision 032; tests/integration/publishing.test.ts).
      isActive: false,
      publishWhenReady: false,
    });
    // A preview job for the new full video.
    expect(await prisma.mediaJob.count({ where: { animationId: created.body.id, sourcePath: files.fullVideo } })).toBe(1);
    const taken = await callRoute(animationsApi, "/api/animations", {
      json: { title: "Other", description: "D", ...(await media()), individualPrice: "1", categoryId: sub.id, slug: created.body.slug },
      token,
    });
    expect(taken.status).toBe(409);
    expect(taken.body.errors).toEqual({ slug: [SLUG_TAKEN] });
    expect((await prisma.auditLog.findFirstOrThrow({ where: { entityId: created.body.id } })).action).toBe("animation.create");
  });
});

describe("PUT and DELETE /api/animations/{id}", () => {
  it("an edit shows on the public page at once; a new full video resets the preview and queues a cut", async () => {
    const { token } = await admin();
    const sub = await category();
    const files = await media();
    const created = await callRoute(animationsApi, "/api/animations", {
      json: { title: `Facelift ${unique()}`, description: "Old text.", ...files, individualPrice: 299, duration: 95, categoryId: sub.id },
      token,
    });
    // Published as it stands: this is about edits of a public animation, not about publishing.
    await prisma.animation.update({
      where: { id: created.body.id },
      data: { isActive: true, previewVideo: (await storeFile("preview", "mp4", "video/mp4")).path },
    });
    const newVideo = await storeFile("video", "mp4", "video/mp4");
    const updated = await callRoute(animationApi, "/", {
      method: "PUT",
      json: { ...created.body, description: "New text.", fullVideo: newVideo.path, duration: 61 },
      params: { slugOrId: created.body.id },
      token,
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ description: "New text.", duration: 61, previewVideo: null, slug: created.body.slug });
    const publicRead = await callRoute(animationApi, `/api/animations/${created.body.slug}`, { params: { slugOrId: created.body.slug } });
    expect(publicRead.body.description).toBe("New text.");
    expect(await prisma.mediaJob.count({ where: { animationId: created.body.id, sourcePath: newVideo.path, status: "queued" } })).toBe(1);
    const audit = await prisma.auditLog.findFirstOrThrow({ where: { entityId: created.body.id, action: "animation.update" } });
    expect(audit.changes).toMatchObject({ description: ["Old text.", "New text."], duration: [95, 61], fullVideo: [files.fullVideo, newVideo.path] });
    expect(
      (await callRoute(animationApi, "/", { method: "PUT", json: created.body, params: { slugOrId: "00000000-0000-4000-8000-000000000000" }, token })).status,
    ).toBe(404);
  });

  it("delete: refused while a member holds an active licence; then gone, with doctor links and jobs", async () => {
    const { token, user } = await admin();
    const sub = await category();
    const created = await callRoute(animationsApi, "/api/animations", {
      json: { title: `Bypass ${unique()}`, description: "D", ...(await media()), individualPrice: 299, categoryId: sub.id },
      token,
    });
    const id = created.body.id;
    const { subscription } = await createPaidSubscription(user.id, { type: "individual", animationId: id });
    const refused = await callRoute(animationApi, "/", { method: "DELETE", params: { slugOrId: id }, token });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(HAS_ACTIVE_LICENCES);
    await prisma.subscription.update({ where: { id: subscription.id }, data: { status: "expired" } });
    expect((await callRoute(animationApi, "/", { method: "DELETE", params: { slugOrId: id }, token })).body).toEqual({ message: "Animation deleted" });
    expect(await prisma.animation.count({ where: { id } })).toBe(0);
    expect(await prisma.mediaJob.count({ where: { animationId: id } })).toBe(0);
    expect((await prisma.subscription.findUniqueOrThrow({ where: { id: subscription.id } })).animationId).toBeNull();
    expect((await callRoute(animationApi, "/", { method: "DELETE", params: { slugOrId: id }, token })).status).toBe(404);
  });
});

describe("the screens without JavaScript", () => {
  it("creates from a multipart form with the three files streamed; a bad file refuses the whole form and keeps nothing", async () => {
    const { cookie } = await admin();
    const sub = await category();
    const form = (cover: Buffer, coverName = "cover.jpg") => {
      const data = new FormData();
      for (const [key, value] of Object.entries({
        title: `Knee ${unique()}`,
        description: "The knee.",
        individualPrice: "99",
        duration: "",
        categoryId: sub.id,
      }))
        data.append(key, value);
      data.append("coverImage", new Blob([new Uint8Array(cover)], { type: "image/jpeg" }), coverName);
      data.append("fullVideo", new Blob([new Uint8Array(fileBytes("mp4"))], { type: "video/mp4" }), "full.mp4");
      data.append("downloadFile", new Blob([new Uint8Array(fileBytes("zip"))], { type: "application/zip" }), "pack.zip");
      return data;
    };
    const before = await prisma.storedObject.count();
    const refused = await callRoute(formScreen, "/admin/animations/new", { method: "POST", body: form(fileBytes("png"), "cover.exe"), cookie });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain("Cover image must be a .jpg, .jpeg or .png file");
    expect(await prisma.storedObject.count()).toBe(before);

    const ok = await callRoute(formScreen, "/admin/animations/new", { method: "POST", body: form(fileBytes("jpg")), cookie });
    expect(ok.status).toBe(302);
    expect(ok.location).toBe("/admin/animations");
    const animation = await prisma.animation.findFirstOrThrow({ where: { categoryId: sub.id } });
    expect(animation.duration).toBe(120);
    expect(animation.coverImage).toMatch(/^\/objects\/uploads\//);
    expect(await prisma.storedObject.count()).toBe(before + 3);
  });

  it("the list filters by category and search; publish and unpublish; the confirm step", async () => {
    const { cookie, token } = await admin();
    const sub = await category();
    const title = `Otoplasty ${unique()}`;
    const created = await callRoute(animationsApi, "/api/animations", {
      json: { title, description: "Ears.", ...(await media()), individualPrice: 299, categoryId: sub.id },
      token,
    });
    const list = await callRoute(
      listScreen,
      `/admin/animations?category=${sub.parentId}&search=${encodeURIComponent(title.toUpperCase())}&confirm=${created.body.id}`,
      { cookie },
    );
    expect(list.body.animations.map((a: { id: string }) => a.id)).toEqual([created.body.id]);
    expect(list.body.confirm).toEqual({ id: created.body.id, title });
    // Ready to publish: its video processed and its review current (publishing.test.ts has the rest).
    const doctor = await prisma.doctor.create({ data: { name: "Dr. Ear", slug: `dr-ear-${unique()}`, specialty: "ENT" } });
    await makeReady(created.body.id, doctor.id);
    expect((await callRoute(listScreen, "/admin/animations", { form: { intent: "publish", id: created.body.id }, cookie })).status).toBe(302);
    const hidden = await callRoute(listScreen, `/admin/animations?category=${sub.id}`, { form: { intent: "unpublish", id: created.body.id }, cookie });
    expect(hidden.location).toBe(`/admin/animations?category=${sub.id}`);
    expect((await callRoute(animationApi, `/api/animations/${created.body.slug}`, { params: { slugOrId: created.body.slug } })).status).toBe(404);
    await callRoute(listScreen, "/admin/animations", { form: { intent: "publish", id: created.body.id }, cookie });
    expect((await prisma.animation.findUniqueOrThrow({ where: { id: created.body.id } })).isActive).toBe(true);
    const actions = (await prisma.auditLog.findMany({ where: { entityId: created.body.id }, orderBy: { createdAt: "asc" } })).map((row) => row.action);
    expect(actions).toEqual(["animation.create", "animation.publish", "animation.unpublish", "animation.publish"]);
  });
});
