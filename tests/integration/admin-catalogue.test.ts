import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { objectIdFromPath } from "~/lib/storage.server.ts";
import * as doctorsScreen from "~/routes/admin/doctors.tsx";
import * as doctorForm from "~/routes/admin/doctor-form.tsx";
import * as categoriesScreen from "~/routes/admin/categories.tsx";
import * as categoryForm from "~/routes/admin/category-form.tsx";
import * as doctorsApi from "~/routes/api/doctors.ts";
import * as doctorApi from "~/routes/api/doctors.slug.ts";
import * as categoriesApi from "~/routes/api/categories.ts";
import * as categoryApi from "~/routes/api/categories.slug.ts";
import { HAS_ACTIVE_LICENCES, HAS_SUBCATEGORIES, MAIN_HAS_NO_PRICE, PARENT_MUST_BE_MAIN } from "~/services/catalogue/category-admin.server.ts";
import { CATEGORY_NAME_REQUIRED, VALID_URL } from "~/validation/admin-catalogue.ts";
import { createAnimation } from "../helpers/catalogue.ts";
import { accessTokenFor, createPaidSubscription, createUser, sessionCookieFor } from "../helpers/factories.ts";
import { callRoute } from "../helpers/route.ts";
import { fileBytes, storeFile } from "./media-helpers.ts";

// Doctors and categories in the back office: every write call with bad input (the product's
// messages), the rules for main and sub-categories and for deleting, the photo checks, the
// audit rows, and the public reads reflecting a write at once.

async function admin() {
  const user = await createUser({ role: "admin" });
  return { user, token: await accessTokenFor(user.id), cookie: await sessionCookieFor(user.id) };
}

const unique = () => Math.random().toString(36).slice(2, 8);

/** A multipart body as a browser without JavaScript sends the doctor form. */
function multipart(fields: Record<string, string>, file?: { field: string; name: string; type: string; bytes: Buffer }) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  if (file) form.append(file.field, new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  return form;
}

describe("doctors", () => {
  it("POST /api/doctors: the product's messages, a made slug, 201, public at once, audited", async () => {
    const { token } = await admin();
    const bad = await callRoute(doctorsApi, "/api/doctors", { json: { name: " ", specialty: "", website: "ftp://x" }, token });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toMatchObject({ name: ["Name is required"], specialty: ["Specialty is required"], website: [VALID_URL] });

    const name = `Dr. Ada ${unique()}`;
    const created = await callRoute(doctorsApi, "/api/doctors", { json: { name, specialty: "Cardiology", website: "https://ada.example" }, token });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name, slug: expect.stringMatching(/^dr-ada-[a-z0-9]+$/), isActive: true, animationCount: 0 });
    const publicRead = await callRoute(doctorApi, `/api/doctors/${created.body.slug}`, { params: { slugOrId: created.body.slug } });
    expect(publicRead.body.name).toBe(name);

    const taken = await callRoute(doctorsApi, "/api/doctors", { json: { name: "Other", specialty: "X", slug: created.body.slug }, token });
    expect(taken.status).toBe(409);
    expect(taken.body.errors).toEqual({ slug: ["This slug is already in use"] });
    const audit = await prisma.auditLog.findFirstOrThrow({ where: { entityId: created.body.id } });
    expect(audit).toMatchObject({ action: "doctor.create", entityType: "doctor" });
  });

  it("PUT and DELETE /api/doctors/{id}: update, deactivate (gone from the public), delete keeps the animations", async () => {
    const { token } = await admin();
    const doctor = await prisma.doctor.create({ data: { name: `Dr. Lin ${unique()}`, slug: `dr-lin-${unique()}`, specialty: "Plastic surgery" } });
    const animation = await createAnimation({ title: `Verified ${unique()}` });
    await prisma.animationDoctor.create({ data: { animationId: animation.id, doctorId: doctor.id } });

    const updated = await callRoute(doctorApi, "/", {
      method: "PUT",
      json: { name: doctor.name, specialty: "Rhinoplasty", isActive: false },
      params: { slugOrId: doctor.id },
      token,
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ specialty: "Rhinoplasty", isActive: false, slug: doctor.slug, animationCount: 1 });
    expect((await callRoute(doctorApi, `/api/doctors/${doctor.slug}`, { params: { slugOrId: doctor.slug } })).status).toBe(404);

    const deleted = await callRoute(doctorApi, "/", { method: "DELETE", params: { slugOrId: doctor.id }, token });
    expect(deleted.body).toEqual({ message: "Doctor deleted" });
    expect(await prisma.animation.count({ where: { id: animation.id } })).toBe(1);
    expect(await prisma.animationDoctor.count({ where: { doctorId: doctor.id } })).toBe(0);
    expect((await callRoute(doctorApi, "/", { method: "DELETE", params: { slugOrId: doctor.id }, token })).status).toBe(404);
    expect((await callRoute(doctorApi, "/", { method: "PUT", json: { name: "x", specialty: "y" }, params: { slugOrId: "nope" }, token })).status).toBe(404);
    const actions = (await prisma.auditLog.findMany({ where: { entityId: doctor.id }, orderBy: { createdAt: "asc" } })).map((row) => row.action);
    expect(actions).toEqual(["doctor.update", "doctor.delete"]);
  });

  it("the form without JavaScript: a photo streamed from a multipart form; wrong bytes or size refused and nothing kept", async () => {
    const { cookie } = await admin();
    const name = `Dr. Photo ${unique()}`;
    const wrongBytes = await callRoute(doctorForm, "/admin/doctors/new", {
      body: multipart({ name, specialty: "Dermatology", isActive: "on" }, { field: "photo", name: "me.png", type: "image/png", bytes: fileBytes("jpg") }),
      method: "POST",
      cookie,
    });
    expect(wrongBytes.status).toBe(400);
    expect(JSON.stringify(wrongBytes.body)).toContain("The file's content is not a valid .png file");
    const big = await callRoute(doctorForm, "/admin/doctors/new", {
      body: multipart(
        { name, specialty: "Dermatology" },
        { field: "photo", name: "me.jpg", type: "image/jpeg", bytes: fileBytes("jpg", 5 * 1024 * 1024 + 10) },
      ),
      method: "POST",
      cookie,
    });
    expect(JSON.stringify(big.body)).toContain("File size must be less than 5MB.");
    const objectsBefore = await prisma.storedObject.count({ where: { kind: "doctor-photo" } });

    const ok = await callRoute(doctorForm, "/admin/doctors/new", {
      body: multipart({ name, specialty: "Dermatology", isActive: "on" }, { field: "photo", name: "me.png", type: "image/png", bytes: fileBytes("png") }),
      method: "POST",
      cookie,
    });
    expect(ok.status).toBe(302);
    expect(ok.location).toBe("/admin/doctors");
    const doctor = await prisma.doctor.findFirstOrThrow({ where: { name } });
    expect(objectIdFromPath(doctor.photo)).toBeTruthy();
    expect(await prisma.storedObject.count({ where: { kind: "doctor-photo" } })).toBe(objectsBefore + 1);

    // A blank required field discards the photo that came with it.
    const invalid = await callRoute(doctorForm, "/admin/doctors/new", {
      body: multipart({ name: "", specialty: "Dermatology" }, { field: "photo", name: "me.png", type: "image/png", bytes: fileBytes("png") }),
      method: "POST",
      cookie,
    });
    expect(invalid.status).toBe(400);
    expect(await prisma.storedObject.count({ where: { kind: "doctor-photo" } })).toBe(objectsBefore + 1);
  });

  it("a photo path must be a finished doctor-photo-sized image upload", async () => {
    const { token } = await admin();
    const video = await storeFile("video", "mp4", "video/mp4");
    const refused = await callRoute(doctorsApi, "/api/doctors", { json: { name: "Dr. V", specialty: "X", photo: video.path }, token });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.errors)).toEqual(["photo"]);
    const missing = await callRoute(doctorsApi, "/api/doctors", {
      json: { name: "Dr. V", specialty: "X", photo: "/objects/uploads/00000000-0000-4000-8000-000000000000" },
      token,
    });
    expect(missing.status).toBe(400);
  });

  it("the list: search, the confirm step without JavaScript, and its delete", async () => {
    const { cookie } = await admin();
    const doctor = await prisma.doctor.create({ data: { name: `Dr. Zed ${unique()}`, slug: `dr-zed-${unique()}`, specialty: "Urology" } });
    const page = await callRoute(doctorsScreen, `/admin/doctors?search=${encodeURIComponent(doctor.name)}&confirm=${doctor.id}`, { cookie });
    expect(page.body.doctors.map((d: { id: string }) => d.id)).toEqual([doctor.id]);
    expect(page.body.confirm).toMatchObject({ id: doctor.id, name: doctor.name });
    const done = await callRoute(doctorsScreen, `/admin/doctors?search=x&confirm=${doctor.id}`, { form: { intent: "delete", id: doctor.id }, cookie });
    expect(done.location).toBe("/admin/doctors?search=x");
    expect(await prisma.doctor.count({ where: { id: doctor.id } })).toBe(0);
  });
});

describe("categories", () => {
  it("POST /api/categories: a blank name is a 400 with 'Category name is required'; mains carry no price", async () => {
    const { token } = await admin();
    const blank = await callRoute(categoriesApi, "/api/categories", { json: { name: "  " }, token });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ message: CATEGORY_NAME_REQUIRED, errors: { name: [CATEGORY_NAME_REQUIRED] } });
    const pricedMain = await callRoute(categoriesApi, "/api/categories", { json: { name: `Main ${unique()}`, yearlyPrice: 199 }, token });
    expect(pricedMain.status).toBe(400);
    expect(pricedMain.body.message).toBe(MAIN_HAS_NO_PRICE);

    const main = await callRoute(categoriesApi, "/api/categories", {
      json: { name: `Main ${unique()}`, description: "Top", yearlyPrice: "", parentId: "" },
      token,
    });
    expect(main.status).toBe(201);
    expect(main.body).toMatchObject({ parentId: null, yearlyPrice: null, isActive: true });
    const sub = await callRoute(categoriesApi, "/api/categories", { json: { name: `Sub ${unique()}`, yearlyPrice: "149.5", parentId: main.body.id }, token });
    expect(sub.status).toBe(201);
    expect(sub.body).toMatchObject({ parentId: main.body.id, yearlyPrice: 149.5 });
    const underSub = await callRoute(categoriesApi, "/api/categories", { json: { name: `Deep ${unique()}`, parentId: sub.body.id }, token });
    expect(underSub.body.message).toBe(PARENT_MUST_BE_MAIN);
    expect(
      (await callRoute(categoriesApi, "/api/categories", { json: { name: `Bad ${unique()}`, yearlyPrice: "-3", parentId: main.body.id }, token })).status,
    ).toBe(400);
    const sameName = await callRoute(categoriesApi, "/api/categories", { json: { name: main.body.name }, token });
    expect(sameName.status).toBe(409);

    // Public at once.
    const publicSub = await callRoute(categoryApi, `/api/categories/${sub.body.slug}`, { params: { slugOrId: sub.body.slug } });
    expect(publicSub.body).toMatchObject({ name: sub.body.name, yearlyPrice: 149.5, parent: { id: main.body.id } });
  });

  it("DELETE: refused with sub-categories or active licences; otherwise its animations are left without a category", async () => {
    const { token, user } = await admin();
    const main = await prisma.category.create({ data: { name: `M ${unique()}`, slug: `m-${unique()}` } });
    const sub = await prisma.category.create({ data: { name: `S ${unique()}`, slug: `s-${unique()}`, parentId: main.id, yearlyPrice: 99 } });
    const animation = await createAnimation({ title: `In sub ${unique()}`, categoryId: sub.id });
    const del = (id: string) => callRoute(categoryApi, "/", { method: "DELETE", params: { slugOrId: id }, token });

    const withChildren = await del(main.id);
    expect(withChildren.status).toBe(409);
    expect(withChildren.body.message).toBe(HAS_SUBCATEGORIES);
    const { subscription } = await createPaidSubscription(user.id, { type: "category", categoryId: sub.id });
    const licensed = await del(sub.id);
    expect(licensed.status).toBe(409);
    expect(licensed.body.message).toBe(HAS_ACTIVE_LICENCES);

    await prisma.subscription.update({ where: { id: subscription.id }, data: { status: "expired" } });
    expect((await del(sub.id)).body).toEqual({ message: "Category deleted" });
    expect((await prisma.animation.findUniqueOrThrow({ where: { id: animation.id } })).categoryId).toBeNull();
    expect((await prisma.subscription.findUniqueOrThrow({ where: { id: subscription.id } })).categoryId).toBeNull();
    expect((await del(main.id)).status).toBe(200);
    expect((await del(main.id)).status).toBe(404);
    const audit = await prisma.auditLog.findFirstOrThrow({ where: { entityId: sub.id, action: "category.delete" } });
    expect(audit.summary).toContain("1 animation left without a category");
  });

  it("the screens: tabs with counts and the average sub-category price; the blank-name toast without JavaScript", async () => {
    const { cookie } = await admin();
    const list = await callRoute(categoriesScreen, "/admin/categories?tab=sub", { cookie });
    expect(list.body.tab).toBe("sub");
    expect(list.body.counts.sub).toBe(await prisma.category.count({ where: { parentId: { not: null } } }));
    const prices = await prisma.category.findMany({ where: { parentId: { not: null }, yearlyPrice: { not: null } }, select: { yearlyPrice: true } });
    if (prices.length) expect(list.body.averageSubPrice).toBeCloseTo(prices.reduce((s, p) => s + Number(p.yearlyPrice), 0) / prices.length, 2);

    const blank = await callRoute(categoryForm, "/admin/categories/new?type=main", { form: { level: "main", name: "", isActive: "on" }, cookie });
    expect(blank.status).toBe(400);
    expect(blank.body.toast).toEqual({ title: "Validation Error", description: CATEGORY_NAME_REQUIRED, type: "error" });
    const name = `Form main ${unique()}`;
    // The Main form drops a price and parent sent anyway (parentId is dropped on the Main tab).
    const ok = await callRoute(categoryForm, "/admin/categories/new?type=main", {
      form: { level: "main", name, yearlyPrice: "50", parentId: "x", isActive: "on" },
      cookie,
    });
    expect(ok.status).toBe(302);
    expect(await prisma.category.findFirstOrThrow({ where: { name } })).toMatchObject({ parentId: null, yearlyPrice: null });
  });
});
