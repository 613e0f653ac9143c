import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnv } from "~/lib/env.server.ts";
import { dropAllCaches } from "~/lib/cache-registry.server.ts";
import * as categoryApi from "~/routes/api/categories.slug.ts";
import * as mainCategories from "~/routes/api/categories.main.ts";
import * as doctorApi from "~/routes/api/doctors.slug.ts";
import * as publicSettings from "~/routes/api/settings.ts";
import * as settingApi from "~/routes/api/settings.key.ts";
import * as helpPage from "~/routes/public/help.tsx";
import { createCatalogue } from "../helpers/catalogue.ts";
import { accessTokenFor, createUser } from "../helpers/factories.ts";
import { writeOnAnotherInstance } from "../helpers/another-instance.ts";
import { callRoute } from "../helpers/route.ts";

// The shared caches on, as in production (CATALOGUE_CACHE_MS a minute, so only an invalidation
// can make a write visible): each public read is made once to fill the cache, then an admin
// writes through the app, and the next read, through the same door, shows the write.

let token: string;
let catalogue: Awaited<ReturnType<typeof createCatalogue>>;

beforeAll(async () => {
  process.env.CATALOGUE_CACHE_MS = "60000";
  resetEnv();
  dropAllCaches();
  catalogue = await createCatalogue();
  token = await accessTokenFor((await createUser({ role: "admin" })).id);
});

afterAll(() => {
  delete process.env.CATALOGUE_CACHE_MS;
  resetEnv();
  dropAllCaches();
});

describe("a write is visible to the next read with the caches on", () => {
  it("the caches are on: a row written by another instance stays unseen", async () => {
    const before = await callRoute(publicSettings, "/api/settings");
    await writeOnAnotherInstance(
      `INSERT INTO "AppSetting" ("id", "key", "value", "updatedAt") VALUES (gen_random_uuid(), 'support_phone', '+1 555 0199', now())
       ON CONFLICT ("key") DO UPDATE SET "value" = EXCLUDED."value"`,
    );
    expect((await callRoute(publicSettings, "/api/settings")).body).toEqual(before.body);
  });

  it("a setting: PUT /api/settings/{key}, then GET /api/settings and the help page's layout", async () => {
    await callRoute(publicSettings, "/api/settings");
    await callRoute(helpPage, "/help");
    const put = await callRoute(settingApi, "/api/settings/platform_name", {
      method: "PUT",
      json: { value: "Medanim Cached" },
      params: { key: "platform_name" },
      token,
    });
    expect(put.status).toBe(200);
    expect((await callRoute(publicSettings, "/api/settings")).body).toContainEqual({ key: "platform_name", value: "Medanim Cached" });
  });

  it("a category: renamed, then the main categories list and its own call", async () => {
    const facial = catalogue.facial;
    await callRoute(mainCategories, "/api/categories/main");
    await callRoute(categoryApi, `/api/categories/${facial.slug}`);
    const renamed = await callRoute(categoryApi, `/api/categories/${facial.id}`, {
      method: "PUT",
      json: { name: "Face and Neck", slug: facial.slug, parentId: catalogue.plastic.id, yearlyPrice: "199", sortOrder: 1, isActive: true },
      token,
    });
    expect(renamed.status).toBe(200);
    const main = (await callRoute(mainCategories, "/api/categories/main")).body as Array<{ subcategories: Array<{ name: string }> }>;
    expect(main.flatMap((c) => c.subcategories.map((s) => s.name))).toContain("Face and Neck");
    expect((await callRoute(categoryApi, `/api/categories/${facial.slug}`)).body).toMatchObject({ name: "Face and Neck" });
  });

  it("a doctor: deactivated, then gone from the public call", async () => {
    const doctor = catalogue.smith;
    expect((await callRoute(doctorApi, `/api/doctors/${doctor.slug}`)).status).toBe(200);
    const updated = await callRoute(doctorApi, `/api/doctors/${doctor.id}`, {
      method: "PUT",
      json: { name: doctor.name, specialty: doctor.specialty, isActive: false },
      token,
    });
    expect(updated.status).toBe(200);
    expect((await callRoute(doctorApi, `/api/doctors/${doctor.slug}`)).status).toBe(404);
  });
});
