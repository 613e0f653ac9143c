import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import * as purchase from "~/routes/account/purchase.tsx";
import { createUser, sessionCookieFor } from "../helpers/factories.ts";
import { createCatalogue, grant } from "../helpers/catalogue.ts";
import { callRoute } from "../helpers/route.ts";

let c: Awaited<ReturnType<typeof createCatalogue>>;
let cookie: string;
let userId: string;

beforeAll(async () => {
  c = await createCatalogue();
  const user = await createUser();
  userId = user.id;
  cookie = await sessionCookieFor(user.id);
});

const individual = (idOrSlug: string, options: { cookie?: string } = {}) =>
  callRoute(purchase, `/purchase/individual/${idOrSlug}`, { params: { idOrSlug }, ...options });
const category = (slugOrId: string, options: { cookie?: string } = {}) =>
  callRoute(purchase, `/purchase/category/${slugOrId}`, { params: { slugOrId }, ...options });

describe("/purchase/individual and /purchase/category", () => {
  it("send anonymous visitors to sign in and back", async () => {
    const res = await individual("rhinoplasty");
    expect(res.status).toBe(302);
    expect(res.location).toBe(`/auth?redirectTo=${encodeURIComponent("/purchase/individual/rhinoplasty")}`);
  });

  it("show the animation licence by slug or id at $299/year", async () => {
    for (const key of ["rhinoplasty", c.rhinoplasty.id]) {
      const res = await individual(key, { cookie });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ kind: "individual", title: "Individual Animation License: Rhinoplasty", price: 299, held: false });
    }
  });

  it("show the category licence at the category's yearly price, or $299 without one", async () => {
    expect((await category("facial-procedures", { cookie })).body).toMatchObject({ title: "Facial Procedures License – Annual Plan", price: 199 });
    expect((await category(c.body.id, { cookie })).body).toMatchObject({ title: "Body Contouring License – Annual Plan", price: 299 });
  });

  it("answer 404 for what cannot be bought: unknown, inactive or hidden", async () => {
    expect((await individual("no-such-animation", { cookie })).status).toBe(404);
    expect((await individual(c.retired.slug, { cookie })).body).toEqual({ message: "Animation not found" });
    expect((await category("hidden-category", { cookie })).body).toEqual({ message: "Category not found" });
  });

  it("say when the licence is already held, and never record a payment", async () => {
    await grant(userId, "individual", { animationId: c.facelift.id });
    expect((await individual("facelift", { cookie })).body).toMatchObject({ held: true });
    expect((await individual("rhinoplasty", { cookie })).body).toMatchObject({ held: false });
    expect(await prisma.payment.count({ where: { userId } })).toBe(0);
  });
});
