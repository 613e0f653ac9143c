import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import * as stepUpPage from "~/routes/account/step-up.tsx";
import * as animationFormScreen from "~/routes/admin/animation-form.tsx";
import * as animationsScreen from "~/routes/admin/animations.tsx";
import * as campaignFormScreen from "~/routes/admin/email-campaign-form.tsx";
import * as categoryFormScreen from "~/routes/admin/category-form.tsx";
import * as refundScreen from "~/routes/admin/refund-decision.tsx";
import * as settingsScreen from "~/routes/admin/settings.tsx";
import * as usersScreen from "~/routes/admin/users.tsx";
import * as refundApi from "~/routes/api/admin/refund-requests.decide.ts";
import * as blockApi from "~/routes/api/admin/users.block.ts";
import * as roleApi from "~/routes/api/admin/users.id.ts";
import * as animationApi from "~/routes/api/animations.slug.ts";
import * as animationsApi from "~/routes/api/animations.ts";
import * as categoriesApi from "~/routes/api/categories.ts";
import * as stepUpApi from "~/routes/api/auth.step-up.ts";
import * as categoryApi from "~/routes/api/categories.slug.ts";
import * as bulkApi from "~/routes/api/emails.bulk.ts";
import * as settingApi from "~/routes/api/settings.key.ts";
import { listApiRoutes, loadEndpoints } from "~/routes/api/openapi.server.ts";
import { type Method, METHODS } from "~/lib/api-route.server.ts";
import { STEP_UP_REQUIRED } from "~/services/auth/guards.server.ts";
import { STEP_UP_WINDOW_MS } from "~/services/auth/step-up.server.ts";
import { createAnimation } from "../helpers/catalogue.ts";
import { accessTokenFor, createPaidSubscription, createUser, sessionCookieFor, totpCode, totpSecrets } from "../helpers/factories.ts";
import { useMailCapture } from "../helpers/mail-capture.ts";
import { sendToApp } from "../helpers/app.ts";
import { callRoute, type CallOptions } from "../helpers/route.ts";
import { storeFile } from "./media-helpers.ts";

// Step-up (decision 019) on every guarded admin action, as a page and as an /api call: without a
// second factor confirmed in the last 10 minutes the page goes to /auth/step-up (which returns to
// it) and the call answers 403 `stepUpRequired`, and nothing changes; after a code, the same
// request succeeds.

useMailCapture();

type Admin = Awaited<ReturnType<typeof createUser>>;
type RouteModule = Parameters<typeof callRoute>[0];
type Request = { mod: RouteModule; url: string } & Pick<CallOptions, "method" | "form" | "json" | "params">;

/**
 * One guarded action on a fresh record: the page's form and the /api call that do it, what the
 * database holds for it (`state`), and what it holds once the action is done (`done`).
 */
type Guarded = {
  name: string;
  /** The /api call it makes, as `METHOD path` of app/routes.ts: one that declares `stepUp`. */
  call: string;
  prepare: (admin: Admin) => Promise<{ page: Request; api: Request; state: () => Promise<unknown>; done: unknown }>;
};

const unique = () => crypto.randomBytes(4).toString("hex");
/** A client address of its own per test: code guesses are limited per address. */
const someAddress = () => `10.${crypto.randomInt(256)}.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`;

async function member(overrides: Parameters<typeof createUser>[0] = {}) {
  const user = await createUser(overrides);
  return { user, state: async () => await prisma.user.findUniqueOrThrow({ where: { id: user.id }, select: { role: true, isActive: true } }) };
}

async function subCategory(yearlyPrice = 199) {
  const main = await prisma.category.create({ data: { name: `Main ${unique()}`, slug: `main-${unique()}` } });
  return prisma.category.create({ data: { name: `Sub ${unique()}`, slug: `sub-${unique()}`, parentId: main.id, yearlyPrice } });
}

async function pendingRefund() {
  const { user } = await member();
  const { payment } = await createPaidSubscription(user.id, { type: "global", description: "Premium yearly subscription" });
  const request = await prisma.refundRequest.create({
    data: { userId: user.id, paymentId: payment.id, reason: "not-satisfied", description: "Not what I needed.", contactEmail: user.email },
  });
  return { request, state: async () => (await prisma.refundRequest.findUniqueOrThrow({ where: { id: request.id } })).status };
}

async function animation() {
  const sub = await subCategory();
  const row = await createAnimation({ title: `Knee ${unique()}`, categoryId: sub.id, individualPrice: 99 });
  const fields = {
    title: row.title,
    description: row.description,
    coverImage: row.coverImage ?? "",
    fullVideo: row.fullVideo ?? "",
    downloadFile: row.downloadFile ?? "",
    duration: String(row.duration),
    categoryId: sub.id,
  };
  return { row, fields, price: async () => (await prisma.animation.findUnique({ where: { id: row.id } }))?.individualPrice.toFixed(2) ?? null };
}

const GUARDED: Guarded[] = [
  ...(["promote", "demote", "block", "unblock"] as const).map((intent) => ({
    name: `${intent} a user`,
    call: intent === "promote" || intent === "demote" ? "PUT api/admin/users/:id" : `POST api/admin/users/:id/${intent}`,
    prepare: async () => {
      const target = await member({ role: intent === "demote" ? "admin" : "user", isActive: intent !== "unblock" });
      const id = target.user.id;
      const api: Request =
        intent === "promote" || intent === "demote"
          ? { mod: roleApi, url: `/api/admin/users/${id}`, method: "PUT", json: { role: intent === "promote" ? "admin" : "user" }, params: { id } }
          : { mod: blockApi, url: `/api/admin/users/${id}/${intent}`, method: "POST", params: { id } };
      const done = {
        promote: { role: "admin", isActive: true },
        demote: { role: "user", isActive: true },
        block: { role: "user", isActive: false },
        unblock: { role: "user", isActive: true },
      }[intent];
      return { page: { mod: usersScreen, url: "/admin/users", form: { intent, id } }, api, state: target.state, done };
    },
  })),
  ...(["approve", "reject"] as const).map((intent) => ({
    name: `${intent} a refund`,
    call: `PUT api/admin/refund-requests/:id/${intent}`,
    prepare: async () => {
      const { request, state } = await pendingRefund();
      const id = request.id;
      return {
        page: { mod: refundScreen, url: `/admin/refunds/${id}`, form: { intent, adminNotes: "Decided after a look." } },
        api: {
          mod: refundApi,
          url: `/api/admin/refund-requests/${id}/${intent}`,
          method: "PUT",
          json: { adminNotes: "Decided after a look." },
          params: { id },
        },
        state,
        done: intent === "approve" ? "processed" : "rejected",
      };
    },
  })),
  {
    name: "change the premium price and other settings",
    call: "PUT api/settings/:key",
    prepare: async () => {
      const price = `${crypto.randomInt(100, 999)}.00`;
      const state = async () => (await prisma.appSetting.findUnique({ where: { key: "global_subscription_yearly_price" } }))?.value ?? null;
      await prisma.appSetting.deleteMany({ where: { key: "global_subscription_yearly_price" } });
      return {
        page: { mod: settingsScreen, url: "/admin/settings", form: { platformName: "Medanim", annualPrice: price } },
        api: {
          mod: settingApi,
          url: "/api/settings/global_subscription_yearly_price",
          method: "PUT",
          json: { value: price },
          params: { key: "global_subscription_yearly_price" },
        },
        state,
        done: price,
      };
    },
  },
  {
    name: "change the public contact details (a settings write)",
    call: "PUT api/settings/:key",
    prepare: async () => {
      const email = `help-${unique()}@clinic.example`;
      await prisma.appSetting.deleteMany({ where: { key: "support_email" } });
      const details = {
        intent: "public-details",
        supportEmail: email,
        supportPhone: "+44 20 7946 0000",
        supportAddress: "1 Harley Street",
        testimonialQuote: "",
        testimonialAuthor: "",
      };
      return {
        page: { mod: settingsScreen, url: "/admin/settings", form: details },
        api: { mod: settingApi, url: "/api/settings/support_email", method: "PUT", json: { value: email }, params: { key: "support_email" } },
        state: async () => (await prisma.appSetting.findUnique({ where: { key: "support_email" } }))?.value ?? null,
        done: email,
      };
    },
  },
  {
    name: "change a category's yearly price",
    call: "PUT api/categories/:slugOrId",
    prepare: async () => {
      const sub = await subCategory(199);
      const fields = { name: sub.name, slug: sub.slug, parentId: sub.parentId!, sortOrder: "0", yearlyPrice: "249" };
      return {
        page: { mod: categoryFormScreen, url: `/admin/categories/${sub.id}`, form: { ...fields, level: "sub", isActive: "on" } },
        api: { mod: categoryApi, url: `/api/categories/${sub.id}`, method: "PUT", json: { ...fields, isActive: true }, params: { slugOrId: sub.id } },
        state: async () => (await prisma.category.findUniqueOrThrow({ where: { id: sub.id } })).yearlyPrice?.toFixed(2),
        done: "249.00",
      };
    },
  },
  {
    name: "change an animation's price",
    call: "PUT api/animations/:slugOrId",
    prepare: async () => {
      const { row, fields, price } = await animation();
      return {
        page: { mod: animationFormScreen, url: `/admin/animations/${row.id}`, form: { ...fields, individualPrice: "149" } },
        api: { mod: animationApi, url: `/api/animations/${row.id}`, method: "PUT", json: { ...fields, individualPrice: "149" }, params: { slugOrId: row.id } },
        state: price,
        done: "149.00",
      };
    },
  },
  {
    name: "create a sub-category with a yearly price",
    call: "POST api/categories",
    prepare: async () => {
      const main = await prisma.category.create({ data: { name: `Main ${unique()}`, slug: `main-${unique()}` } });
      const name = `Priced ${unique()}`;
      return {
        page: { mod: categoryFormScreen, url: "/admin/categories/new", form: { name, level: "sub", parentId: main.id, yearlyPrice: "149", isActive: "on" } },
        api: { mod: categoriesApi, url: "/api/categories", method: "POST", json: { name, parentId: main.id, yearlyPrice: "149" } },
        state: async () => (await prisma.category.findFirst({ where: { name } }))?.yearlyPrice?.toFixed(2) ?? null,
        done: "149.00",
      };
    },
  },
  {
    name: "create an animation (it goes on sale at its price)",
    call: "POST api/animations",
    prepare: async () => {
      const sub = await subCategory();
      const [cover, video, download] = await Promise.all([
        storeFile("cover", "jpg", "image/jpeg"),
        storeFile("video", "mp4", "video/mp4"),
        storeFile("download", "zip", "application/zip"),
      ]);
      const title = `Hip ${unique()}`;
      const fields = {
        title,
        description: "The hip.",
        coverImage: cover.path,
        fullVideo: video.path,
        downloadFile: download.path,
        individualPrice: "79",
        categoryId: sub.id,
      };
      return {
        page: { mod: animationFormScreen, url: "/admin/animations/new", form: fields },
        api: { mod: animationsApi, url: "/api/animations", method: "POST", json: fields },
        state: async () => (await prisma.animation.findFirst({ where: { title } }))?.individualPrice.toFixed(2) ?? null,
        done: "79.00",
      };
    },
  },
  {
    name: "delete an animation",
    call: "DELETE api/animations/:slugOrId",
    prepare: async () => {
      const { row, price } = await animation();
      return {
        page: { mod: animationsScreen, url: "/admin/animations", form: { intent: "delete", id: row.id } },
        api: { mod: animationApi, url: `/api/animations/${row.id}`, method: "DELETE", params: { slugOrId: row.id } },
        state: price,
        done: null,
      };
    },
  },
  {
    name: "send an e-mail campaign",
    call: "POST api/emails/bulk",
    prepare: async () => {
      await member();
      const subject = `News ${unique()}`;
      return {
        page: {
          mod: campaignFormScreen,
          url: "/admin/email-manager/campaigns/new",
          form: { intent: "send", targetGroup: "free", kind: "newsletter", subject, htmlContent: "<p>Hello</p>" },
        },
        api: { mod: bulkApi, url: "/api/emails/bulk", method: "POST", json: { targetGroup: "free", subject, html: "<p>Hello</p>" } },
        state: () => prisma.emailCampaign.count({ where: { subject } }),
        done: 1,
      };
    },
  },
];

const send = (request: Request, auth: Pick<CallOptions, "cookie" | "token" | "clientIp">) => {
  const { mod, url, ...options } = request;
  return callRoute(mod, url, { ...options, ...auth });
};

describe.each(GUARDED)("$name", ({ prepare }) => {
  it("page: sent to the step-up form and back, nothing changed; after a code the same form succeeds", async () => {
    const admin = await createUser({ role: "admin" });
    const { page, state, done } = await prepare(admin);
    const auth = { cookie: await sessionCookieFor(admin.id, { stepUp: "earlier" }), clientIp: someAddress() };
    const before = await state();
    expect(before).not.toEqual(done);

    const refused = await send(page, auth);
    expect(refused.status).toBe(302);
    expect(refused.location).toBe(`/auth/step-up?redirectTo=${encodeURIComponent(page.url)}`);
    expect(await state()).toEqual(before);

    const confirmed = await callRoute(stepUpPage, "/auth/step-up", {
      form: { code: await totpCode(totpSecrets.get(admin.id)!), redirectTo: page.url },
      ...auth,
    });
    expect(confirmed.location).toBe(page.url);
    const succeeded = await send(page, auth);
    expect(succeeded.status).toBe(302);
    expect(succeeded.location).not.toMatch(/^\/auth\/step-up/);
    expect(await state()).toEqual(done);
  });
});

/**
 * Every /api call whose endpoint table declares `stepUp`, read from app/routes.ts and the tables
 * (as the OpenAPI document is): a call that declares one is tested here the day it is added.
 */
const DECLARED: { call: string; pattern: RegExp; method: Method }[] = [];
for (const route of listApiRoutes()) {
  const table = await loadEndpoints(route);
  for (const method of METHODS) {
    if (table[method]?.stepUp) DECLARED.push({ call: `${method} ${route.path}`, method, pattern: new RegExp(`^/${route.path.replace(/:\w+/g, "[^/]+")}$`) });
  }
}

describe.each(DECLARED)("$call, declared with a step-up", ({ call, method, pattern }) => {
  const scenarios = GUARDED.filter((guarded) => guarded.call === call);

  it("has an action on a fresh record to try it with", () => {
    expect(scenarios.map(({ name }) => name)).not.toEqual([]);
  });

  it.each(scenarios)("$name: 403 with stepUpRequired, nothing changed; after POST /api/auth/step-up the same call succeeds", async ({ prepare }) => {
    const admin = await createUser({ role: "admin" });
    const { api, state, done } = await prepare(admin);
    expect(api.method ?? "GET").toBe(method);
    expect(new URL(api.url, "http://localhost").pathname).toMatch(pattern);
    const auth = { token: await accessTokenFor(admin.id, { stepUp: "earlier" }), clientIp: someAddress() };
    const before = await state();

    const refused = await send(api, auth);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: STEP_UP_REQUIRED, stepUpRequired: true });
    expect(await state()).toEqual(before);

    const confirmed = await callRoute(stepUpApi, "/api/auth/step-up", { json: { code: await totpCode(totpSecrets.get(admin.id)!) }, ...auth });
    expect(confirmed.status).toBe(200);
    const succeeded = await send(api, auth);
    expect(succeeded.status).toBeLessThan(300);
    expect(await state()).toEqual(done);
  });
});

describe("what step-up asks for and what it leaves", () => {
  it("every scenario's /api call is one that declares a step-up", () => {
    expect(DECLARED.length).toBeGreaterThan(0);
    const declared = new Set(DECLARED.map(({ call }) => call));
    expect(GUARDED.filter(({ call }) => !declared.has(call)).map(({ name, call }) => `${name}: ${call}`)).toEqual([]);
  });

  it("an edit that keeps the price, or a category without one, is not asked for a code", async () => {
    const admin = await createUser({ role: "admin" });
    const { row, fields } = await animation();
    const cookie = await sessionCookieFor(admin.id, { stepUp: "earlier" });
    const token = await accessTokenFor(admin.id, { stepUp: "earlier" });
    const page = await callRoute(animationFormScreen, `/admin/animations/${row.id}`, {
      form: { ...fields, title: "Knee, renamed", individualPrice: "99.00" },
      cookie,
    });
    expect(page.location).toBe("/admin/animations");
    const api = await callRoute(animationApi, `/api/animations/${row.id}`, {
      method: "PUT",
      json: { ...fields, title: "Knee, again", individualPrice: 99 },
      params: { slugOrId: row.id },
      token,
    });
    expect(api.status).toBe(200);
    expect((await prisma.animation.findUniqueOrThrow({ where: { id: row.id } })).title).toBe("Knee, again");

    const main = await callRoute(categoriesApi, "/api/categories", { json: { name: `Main ${unique()}` }, token });
    expect(main.status).toBe(201);
    const unpriced = await callRoute(categoriesApi, "/api/categories", { json: { name: `Sub ${unique()}`, parentId: main.body.id }, token });
    expect(unpriced.status).toBe(201);

    const sub = await subCategory(199);
    const category = await callRoute(categoryApi, `/api/categories/${sub.id}`, {
      method: "PUT",
      json: { name: `Renamed ${unique()}`, parentId: sub.parentId, yearlyPrice: "199.00" },
      params: { slugOrId: sub.id },
      token,
    });
    expect(category.status).toBe(200);
  });

  it("the long guarded forms offer the step-up before they are filled in (their content would not survive the detour); not after one", async () => {
    const admin = await createUser({ role: "admin" });
    const { row } = await animation();
    const sub = await subCategory();
    const stale = await sessionCookieFor(admin.id, { stepUp: "earlier" });
    const recent = await sessionCookieFor(admin.id);
    const html = async (url: string, cookie: string) => (await sendToApp(url, { headers: new Headers({ Cookie: cookie }) })).body.toString("utf8");
    const forms: [RouteModule, string][] = [
      [campaignFormScreen, "/admin/email-manager/campaigns/new"],
      [animationFormScreen, `/admin/animations/${row.id}`],
      [animationFormScreen, "/admin/animations/new"],
      [categoryFormScreen, `/admin/categories/${sub.id}`],
      [categoryFormScreen, "/admin/categories/new?type=sub"],
    ];
    for (const [mod, url] of forms) {
      const link = `/auth/step-up?redirectTo=${encodeURIComponent(url)}`;
      expect((await callRoute(mod, url, { cookie: stale })).body.stepUpLink, url).toBe(link);
      const page = await html(url, stale);
      expect(page, url).toContain('data-testid="step-up-notice"');
      expect(page, url).toContain(`href="${link.replaceAll("&", "&amp;")}"`);
      expect((await callRoute(mod, url, { cookie: recent })).body.stepUpLink, url).toBeNull();
      expect(await html(url, recent), url).not.toContain('data-testid="step-up-notice"');
    }
  });

  it("a test message is not a campaign: it needs no step-up", async () => {
    const admin = await createUser({ role: "admin" });
    const token = await accessTokenFor(admin.id, { stepUp: "earlier" });
    const test = await callRoute(bulkApi, "/api/emails/bulk", { json: { subject: "Try", html: "<p>x</p>", testEmail: "me@example.com" }, token });
    expect(test.status).toBe(200);
  });

  it("a step-up is audited as security.step_up; one older than 10 minutes no longer counts", async () => {
    const admin = await createUser({ role: "admin" });
    const { user } = await member();
    const cookie = await sessionCookieFor(admin.id, { stepUp: "earlier" });
    const clientIp = someAddress();
    await callRoute(stepUpPage, "/auth/step-up", { form: { code: await totpCode(totpSecrets.get(admin.id)!), redirectTo: "/admin/users" }, cookie, clientIp });
    expect(await prisma.auditLog.findMany({ where: { actorId: admin.id, action: "security.step_up" } })).toMatchObject([
      { entityType: "security", entityId: admin.id },
    ]);

    const sessionId = (await prisma.session.findFirstOrThrow({ where: { userId: admin.id } })).id;
    await prisma.session.update({ where: { id: sessionId }, data: { stepUpAt: new Date(Date.now() - STEP_UP_WINDOW_MS - 1000) } });
    const stale = await callRoute(usersScreen, "/admin/users", { form: { intent: "block", id: user.id }, cookie, clientIp });
    expect(stale.location).toBe("/auth/step-up?redirectTo=%2Fadmin%2Fusers");
    await prisma.session.update({ where: { id: sessionId }, data: { stepUpAt: new Date(Date.now() - STEP_UP_WINDOW_MS + 60_000) } });
    const recent = await callRoute(usersScreen, "/admin/users", { form: { intent: "block", id: user.id }, cookie, clientIp });
    expect(recent.location).toBe("/admin/users");
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).isActive).toBe(false);

    const token = await accessTokenFor(admin.id);
    const familyId = (await prisma.refreshToken.findFirstOrThrow({ where: { userId: admin.id, stepUpAt: { not: null } } })).familyId;
    await prisma.refreshToken.updateMany({ where: { familyId }, data: { stepUpAt: new Date(Date.now() - STEP_UP_WINDOW_MS - 1000) } });
    const api = await callRoute(blockApi, `/api/admin/users/${user.id}/unblock`, { method: "POST", params: { id: user.id }, token });
    expect(api.status).toBe(403);
    expect(api.body.stepUpRequired).toBe(true);
  });

  it("a wrong code steps nothing up", async () => {
    const admin = await createUser({ role: "admin" });
    const token = await accessTokenFor(admin.id, { stepUp: "earlier" });
    const wrong = await callRoute(stepUpApi, "/api/auth/step-up", {
      json: { code: await totpCode(totpSecrets.get(admin.id)!, 10) },
      token,
      clientIp: someAddress(),
    });
    expect(wrong.status).toBe(400);
    const { user } = await member();
    expect((await callRoute(blockApi, `/api/admin/users/${user.id}/block`, { method: "POST", params: { id: user.id }, token })).status).toBe(403);
    expect(await prisma.auditLog.count({ where: { actorId: admin.id, action: "security.step_up" } })).toBe(0);
  });
});
