import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import * as libraryPage from "~/routes/account/my-animations.tsx";
import * as oembedRoute from "~/routes/api/oembed.ts";
import { embedVideoUrl as signedVideoUrl, type EmbedMediaGrant } from "~/services/licensing/embed-media.server.ts";

/** The embed's signed stored-video URL, as the page signs it (10 minutes beyond a 0-second video). */
const TTL = 600;
const embedVideoUrl = (grant: EmbedMediaGrant, now = Date.now()) => signedVideoUrl(grant, TTL, now);
import { appUrl } from "~/lib/mail.server.ts";
import {
  addEmbedDomain,
  LICENCE_ENDED,
  VIDEO_NO_LONGER_AVAILABLE,
  NOT_LICENSED_HERE,
  LICENCE_NOT_FOUND,
  listEmbedDomains,
  listEmbedLicences,
  listEmbedPlaysForAnimation,
  removeEmbedDomain,
  resolveEmbed,
} from "~/services/licensing/embeds.server.ts";
import { completeRefund } from "~/services/commerce/refunds.server.ts";
import { EMBED_DOMAIN_MESSAGES, MAX_EMBED_DOMAINS } from "~/validation/embed-domains.ts";
import { sendToApp, testApp } from "../helpers/app.ts";
import { createPaidSubscription, createUser, sessionCookieFor } from "../helpers/factories.ts";
import { callRoute } from "../helpers/route.ts";
import { useMailCapture } from "../helpers/mail-capture.ts";
import { startMediaApp, storeFile } from "./media-helpers.ts";

// Licensed embeds: the domain rules through the service and the /my-animations form, the
// /embed access matrix and its headers as they leave the real middleware, the signed media URL,
// the per-licence play counters, and oEmbed.

const SITE = "127.0.0.1:3301";
const mail = useMailCapture();
const SITE_PAGE = `http://${SITE}/clinic/knee.html`;

let media: Awaited<ReturnType<typeof startMediaApp>>;
let world: Awaited<ReturnType<typeof createWorld>>;

async function createWorld() {
  const n = crypto.randomUUID().slice(0, 8);
  const parent = await prisma.category.create({ data: { name: `Orthopaedics ${n}`, slug: `ortho-${n}` } });
  const child = await prisma.category.create({ data: { name: `Knee ${n}`, slug: `knee-${n}`, parentId: parent.id } });
  const full = await storeFile("video", "mp4", "video/mp4", 64 * 1024);
  const otherFull = await storeFile("video", "mp4", "video/mp4", 8 * 1024);
  const caption = await storeFile("caption", "mp4", "text/vtt", 200);
  const doctor = await prisma.doctor.create({ data: { name: "Dr. Ada Knee", slug: `dr-${n}`, specialty: "Orthopaedics" } });
  const day = 24 * 60 * 60 * 1000;
  const animation = await prisma.animation.create({
    data: {
      title: "Knee <Arthroscopy> & repair",
      slug: `knee_${n}`,
      description: "How a knee is repaired.",
      fullVideo: full.path,
      coverImage: "/demo/cover.jpg",
      // A 4:3 video: the snippet's box takes this shape, not the usual 16:9.
      videoWidth: 640,
      videoHeight: 480,
      categoryId: child.id,
      doctors: { create: { doctorId: doctor.id } },
      medicalReviewerId: doctor.id,
      medicallyReviewedAt: new Date(Date.UTC(2026, 0, 15)),
      reviewDueAt: new Date(Date.now() + 300 * day),
      captions: { create: { language: "en", label: "English", path: caption.path } },
    },
  });
  const other = await prisma.animation.create({
    data: { title: "Hip", slug: `hip_${n}`, description: "Hip.", fullVideo: otherFull.path, categoryId: parent.id },
  });

  const users = {
    none: await createUser(),
    premium: await createUser({ accountType: "premium" }),
    individual: await createUser(),
    category: await createUser(),
    otherAnimation: await createUser(),
    expired: await createUser(),
    canceled: await createUser(),
    refunded: await createUser(),
  };
  const licence = {
    premium: (await createPaidSubscription(users.premium.id, { type: "global" })).subscription,
    individual: (await createPaidSubscription(users.individual.id, { type: "individual", animationId: animation.id })).subscription,
    // A licence for the parent category covers the animations of its subcategories.
    category: (await createPaidSubscription(users.category.id, { type: "category", categoryId: parent.id })).subscription,
    otherAnimation: (await createPaidSubscription(users.otherAnimation.id, { type: "individual", animationId: other.id })).subscription,
    expired: (await createPaidSubscription(users.expired.id, { type: "individual", animationId: animation.id, endDate: new Date(Date.now() - 1000) }))
      .subscription,
    canceled: (await createPaidSubscription(users.canceled.id, { type: "individual", animationId: animation.id, status: "canceled" })).subscription,
    refunded: await (async () => {
      const { subscription, payment } = await createPaidSubscription(users.refunded.id, { type: "individual", animationId: animation.id });
      await prisma.payment.update({ where: { id: payment.id }, data: { stripePaymentIntentId: `pi_embed_${n}` } });
      await prisma.$transaction((tx) => completeRefund(tx, `pi_embed_${n}`));
      return subscription;
    })(),
  };
  // Every licence names the same site, so only the licence's state decides.
  for (const id of [
    licence.premium.id,
    licence.individual.id,
    licence.category.id,
    licence.otherAnimation.id,
    licence.expired.id,
    licence.canceled.id,
    licence.refunded.id,
  ]) {
    await prisma.licenceEmbedDomain.create({ data: { subscriptionId: id, host: SITE } });
  }
  return { animation, other, parent, child, users, licence, full, caption };
}

beforeAll(async () => {
  media = await startMediaApp();
  world = await createWorld();
});

afterAll(async () => {
  await media.close();
});

describe("domains of a licence", () => {
  it("adds normalised hosts, refuses duplicates and a sixth, removes", async () => {
    const user = await createUser();
    const { subscription } = await createPaidSubscription(user.id, { type: "individual", animationId: world.other.id });
    const added = await addEmbedDomain(user.id, subscription.id, "HTTPS://WWW.Clinic.Example/knee");
    expect(added.host).toBe("www.clinic.example");
    await expect(addEmbedDomain(user.id, subscription.id, "www.clinic.example")).rejects.toMatchObject({
      message: EMBED_DOMAIN_MESSAGES.duplicate,
      status: 409,
      field: "host",
    });
    await expect(addEmbedDomain(user.id, subscription.id, "clinic.example; script-src *")).rejects.toMatchObject({
      message: EMBED_DOMAIN_MESSAGES.characters,
      status: 400,
    });
    for (const host of ["a.example", "*.b.example", "c.example:8443", "127.0.0.1:3301"]) await addEmbedDomain(user.id, subscription.id, host);
    expect(await listEmbedDomains(user.id, subscription.id)).toHaveLength(MAX_EMBED_DOMAINS);
    await expect(addEmbedDomain(user.id, subscription.id, "f.example")).rejects.toMatchObject({ message: EMBED_DOMAIN_MESSAGES.limit, status: 409 });

    await removeEmbedDomain(user.id, subscription.id, added.id);
    expect((await listEmbedDomains(user.id, subscription.id)).map((d) => d.host)).toEqual(["a.example", "*.b.example", "c.example:8443", "127.0.0.1:3301"]);
  });

  it("holds the limit against concurrent adds", async () => {
    const user = await createUser();
    const { subscription } = await createPaidSubscription(user.id, { type: "individual", animationId: world.other.id });
    const results = await Promise.allSettled(["1", "2", "3", "4", "5", "6", "7"].map((n) => addEmbedDomain(user.id, subscription.id, `site${n}.example`)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(MAX_EMBED_DOMAINS);
    expect(await prisma.licenceEmbedDomain.count({ where: { subscriptionId: subscription.id } })).toBe(MAX_EMBED_DOMAINS);
  });

  it("another user's licence, a global subscription or a malformed id: 404 Licence not found", async () => {
    const stranger = await createUser();
    for (const id of [world.licence.individual.id, world.licence.premium.id, "not-a-uuid"]) {
      await expect(addEmbedDomain(stranger.id, id, "evil.example")).rejects.toMatchObject({ message: LICENCE_NOT_FOUND, status: 404 });
    }
    const [domain] = await listEmbedDomains(world.users.individual.id, world.licence.individual.id);
    await expect(removeEmbedDomain(stranger.id, world.licence.individual.id, domain!.id)).rejects.toMatchObject({ status: 404 });
    await expect(addEmbedDomain(world.users.premium.id, world.licence.premium.id, "x.example")).rejects.toMatchObject({ status: 404 });
  });

  it("through the /my-animations form: errors beside the field, a redirect on success, Remove", async () => {
    const user = await createUser();
    const cookie = await sessionCookieFor(user.id);
    const { subscription } = await createPaidSubscription(user.id, { type: "individual", animationId: world.other.id });

    const bad = await callRoute(libraryPage, "/my-animations", { cookie, form: { intent: "add-domain", licenceId: subscription.id, host: "*.com" } });
    expect(bad.status).toBe(400);
    expect(bad.body.licenceId).toBe(subscription.id);
    expect(bad.body.result.error.host).toEqual([EMBED_DOMAIN_MESSAGES.wildcardTooWide]);

    const good = await callRoute(libraryPage, "/my-animations", {
      cookie,
      form: { intent: "add-domain", licenceId: subscription.id, host: "Portal.Clinic.Example" },
    });
    expect(good.status).toBe(302);
    expect(good.location).toBe(`/my-animations#embed-${subscription.id}`);
    const [domain] = await listEmbedDomains(user.id, subscription.id);
    expect(domain!.host).toBe("portal.clinic.example");

    const foreign = await callRoute(libraryPage, "/my-animations", {
      cookie,
      form: { intent: "add-domain", licenceId: world.licence.individual.id, host: "evil.example" },
    });
    expect(foreign.status).toBe(404);
    // Not the field's fault: shown above the form.
    expect(foreign.body.result.error[""]).toEqual([LICENCE_NOT_FOUND]);

    const removed = await callRoute(libraryPage, "/my-animations", {
      cookie,
      form: { intent: "remove-domain", licenceId: subscription.id, domainId: domain!.id },
    });
    expect(removed.status).toBe(302);
    expect(await listEmbedDomains(user.id, subscription.id)).toEqual([]);

    const page = await callRoute(libraryPage, "/my-animations", { cookie });
    const embeds = page.body.embeds as Awaited<ReturnType<typeof listEmbedLicences>>;
    expect(embeds.map((e) => e.id)).toEqual([subscription.id]);
    expect(embeds[0]!.snippet).toContain(`/embed/${world.other.id}?licence=${subscription.id}`);
    // Not measured yet: 16:9.
    expect(embeds[0]!.snippet).toMatch(/^<div style="position:relative;width:100%;max-width:960px;aspect-ratio:16\/9"><iframe /);
  });

  it("the snippet's box has the probed video's shape, and its iframe sends the page's origin", async () => {
    const [licence] = await listEmbedLicences(world.users.individual.id);
    expect(licence!.snippet).toMatch(/^<div style="position:relative;width:100%;max-width:720px;aspect-ratio:4\/3"><iframe /);
    expect(licence!.snippet).toContain(`referrerpolicy="strict-origin"`);
    expect(licence!.choices).toEqual([]);
  });

  it("a category licence lists its animations; ?licence=&animation= picks the one its snippet shows", async () => {
    const cookie = await sessionCookieFor(world.users.category.id);
    const load = async (query = "") => {
      const page = await callRoute(libraryPage, `/my-animations${query}`, { cookie });
      return (page.body.embeds as Awaited<ReturnType<typeof listEmbedLicences>>).find((e) => e.id === world.licence.category.id)!;
    };
    const first = await load();
    // The parent category's own animation and its subcategory's, by title.
    expect(first.choices.map((c) => c.title)).toEqual(["Hip", world.animation.title]);
    expect(first.snippet).toContain(`/embed/${world.other.id}?licence=${world.licence.category.id}`);
    const picked = await load(`?licence=${world.licence.category.id}&animation=${world.animation.id}`);
    expect(picked.example).toEqual({ id: world.animation.id, title: world.animation.title });
    expect(picked.snippet).toContain(`/embed/${world.animation.id}?licence=${world.licence.category.id}`);
    expect(picked.snippet).toContain("aspect-ratio:4/3");
    // Not one of the category's animations, or another licence's choice: the first again.
    for (const query of [
      `?licence=${world.licence.category.id}&animation=${crypto.randomUUID()}`,
      `?licence=${crypto.randomUUID()}&animation=${world.animation.id}`,
    ]) {
      expect((await load(query)).example?.id, query).toBe(world.other.id);
    }
  });

  it("signed out: the form action sends to sign-in", async () => {
    const result = await callRoute(libraryPage, "/my-animations", {
      form: { intent: "add-domain", licenceId: world.licence.individual.id, host: "a.example" },
    });
    expect(result.status).toBe(302);
    expect(result.location).toMatch(/^\/auth/);
    expect(await prisma.licenceEmbedDomain.count({ where: { host: "a.example", subscriptionId: world.licence.individual.id } })).toBe(0);
  });
});

describe("/embed access matrix", () => {
  // Through the front door: the page as a clinic's frame receives it, its text with React's
  // entities and comment separators undone.
  const embed = async (animationId: string, { licence, referer, dest }: { licence?: string; referer?: string; dest?: "iframe" | "document" } = {}) => {
    const response = await sendToApp(`/embed/${encodeURIComponent(animationId)}${licence ? `?licence=${encodeURIComponent(licence)}` : ""}`, {
      headers: new Headers({ ...(referer ? { Referer: referer } : {}), ...(dest ? { "Sec-Fetch-Dest": dest } : {}) }),
    });
    const body = response.body
      .toString("utf8")
      .replace(/<!-- -->/g, "")
      .replace(/&#x27;/g, "'")
      .replace(/&quot;/g, '"');
    return { status: response.status, headers: response.headers, body };
  };
  const heading = (text: string) => new RegExp(`<h1[^>]*>${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}</h1>`);

  const cases: [name: string, licence: () => string | undefined, outcome: "play" | "ended" | "none"][] = [
    ["anonymous (no licence named, no embedding site)", () => undefined, "none"],
    ["a user without a licence (another animation's licence)", () => world.licence.otherAnimation.id, "none"],
    ["premium only (a global subscription is no licence)", () => world.licence.premium.id, "none"],
    ["an unknown licence id", () => crypto.randomUUID(), "none"],
    ["a malformed licence id", () => "'; DROP TABLE x; --", "none"],
    ["an individual licence", () => world.licence.individual.id, "play"],
    ["a category licence through the parent category", () => world.licence.category.id, "play"],
    ["an expired licence", () => world.licence.expired.id, "ended"],
    ["a canceled licence", () => world.licence.canceled.id, "ended"],
    ["a refunded licence", () => world.licence.refunded.id, "ended"],
  ];
  for (const [name, licence, outcome] of cases) {
    it(`${name} → ${outcome}`, async () => {
      const named = licence();
      const result = await embed(world.animation.id, { licence: named, referer: named ? SITE_PAGE : undefined, dest: "iframe" });
      const html = String(result.body);
      expect(result.headers.get("Cache-Control")).toBe("no-store");
      expect(result.headers.get("Content-Type")).toMatch(/^text\/html/);
      const csp = result.headers.get("Content-Security-Policy")!;
      expect(csp).toContain("default-src 'none'");
      if (outcome === "none") {
        expect(result.status).toBe(404);
        expect(csp).toContain("frame-ancestors 'none'");
        expect(html).not.toContain("<video");
      } else if (outcome === "ended") {
        // Framed on the clinic's site: a patient's message, nothing for sale (the clinic is e-mailed).
        expect(result.status).toBe(200);
        expect(html).toMatch(heading(VIDEO_NO_LONGER_AVAILABLE));
        expect(html).not.toContain(LICENCE_ENDED);
        expect(html).not.toContain("/purchase/");
        expect(html).not.toContain("embed-media");
        expect(csp).toContain(`frame-ancestors 'self' http://${SITE} https://${SITE}`);
      } else {
        expect(result.status).toBe(200);
        expect(csp).toContain(`frame-ancestors 'self' http://${SITE} https://${SITE}`);
        expect(csp).not.toContain("frame-ancestors 'none'");
        expect(html).toMatch(/<video[^>]* controls=""[^>]* preload="none"/);
        expect(html).toContain(`/embed-media/${world.animation.id}/video?licence=${licence()}`);
        // The captions are the animation's public tracks (its transcript is on the public page too).
        expect(html).toMatch(/<track kind="captions" srcLang="en" label="English" src="\/objects\/uploads\/[^"]+" default=""\/?>/);
        expect(html).toContain("Knee &lt;Arthroscopy&gt; &amp; repair");
        expect(html).toContain("Medically reviewed by Dr. Ada Knee (Orthopaedics) on January 15, 2026 · next review ");
        expect(Buffer.byteLength(html)).toBeLessThan(20 * 1024);
      }
    });
  }

  it("without ?licence=, the active licence that names the embedding site plays; other sites get nothing", async () => {
    const fromSite = await embed(world.animation.id, { referer: SITE_PAGE, dest: "iframe" });
    expect(fromSite.status).toBe(200);
    expect(String(fromSite.body)).toContain(`host=${encodeURIComponent(SITE)}`);
    expect((await embed(world.animation.id, { referer: "http://127.0.0.1:3302/page", dest: "iframe" })).status).toBe(404);
    expect((await embed(world.animation.id, { dest: "iframe" })).status).toBe(404);
  });

  it("a wildcard site covers its subdomains only, with the same port", async () => {
    const user = await createUser();
    const { subscription } = await createPaidSubscription(user.id, { type: "individual", animationId: world.animation.id });
    await addEmbedDomain(user.id, subscription.id, "*.wild-clinic.example");
    const fromSub = await embed(world.animation.id, { referer: "https://www.wild-clinic.example/knee", dest: "iframe" });
    expect(fromSub.status).toBe(200);
    expect(String(fromSub.body)).toContain(`licence=${subscription.id}`);
    expect(fromSub.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'self' http://*.wild-clinic.example https://*.wild-clinic.example");
    for (const referer of ["https://wild-clinic.example/", "https://evilwild-clinic.example/", "https://www.wild-clinic.example:8443/"]) {
      expect((await embed(world.animation.id, { referer, dest: "iframe" })).status, referer).toBe(404);
    }
  });

  it("a licence for another animation of the same category does not carry over; a missing animation is 404", async () => {
    expect((await embed(world.other.id, { licence: world.licence.individual.id })).status).toBe(404);
    expect((await embed(crypto.randomUUID(), { licence: world.licence.individual.id })).status).toBe(404);
    expect((await embed("not-a-uuid", { licence: world.licence.individual.id })).status).toBe(404);
  });

  it("a licence with no site yet may be framed by Medanim alone (the licensee's preview)", async () => {
    const user = await createUser();
    const { subscription } = await createPaidSubscription(user.id, { type: "individual", animationId: world.animation.id });
    const result = await embed(world.animation.id, { licence: subscription.id, referer: `${appUrl()}/my-animations`, dest: "iframe" });
    expect(result.status).toBe(200);
    expect(String(result.body)).toContain("<video");
    expect(result.headers.get("Content-Security-Policy")).toMatch(/frame-ancestors 'self'(;|$)/);
  });

  describe("framed on a site the licence does not name: the friendly card", () => {
    const OTHER_SITE_PAGE = "http://127.0.0.1:3302/";

    it("a frame from another site gets the card, frameable anywhere, with no media and no licence", async () => {
      const result = await embed(world.animation.id, { licence: world.licence.individual.id, referer: OTHER_SITE_PAGE, dest: "iframe" });
      const html = String(result.body);
      expect(result.status).toBe(200);
      expect(html).toMatch(heading(NOT_LICENSED_HERE));
      expect(html).toContain(`href="${appUrl()}/animations/${world.animation.slug}"`);
      expect(html).not.toMatch(/<video|embed-media/);
      expect(html).not.toContain(world.licence.individual.id);
      const csp = result.headers.get("Content-Security-Policy")!;
      expect(csp).toMatch(/frame-ancestors \*(;|$)/);
      expect(csp).toContain("default-src 'none'");
      // An ended licence framed elsewhere: the same card, no renewal link for a stranger.
      const ended = await embed(world.animation.id, { licence: world.licence.expired.id, referer: OTHER_SITE_PAGE, dest: "iframe" });
      expect(String(ended.body)).toContain(NOT_LICENSED_HERE);
    });

    it("the licence's own site and Medanim's pages keep the player and its frame-ancestors", async () => {
      const views: [string, { referer?: string; dest?: "iframe" | "document" }, string][] = [
        ["a frame on the licence's site", { referer: SITE_PAGE, dest: "iframe" }, `host=${encodeURIComponent(SITE)}`],
        ["the preview on /my-animations", { referer: `${appUrl()}/my-animations`, dest: "iframe" }, "host=direct"],
      ];
      for (const [name, view, host] of views) {
        const result = await embed(world.animation.id, { licence: world.licence.individual.id, ...view });
        expect(String(result.body), name).toContain(`<video`);
        expect(String(result.body), name).toContain(host);
        expect(result.headers.get("Content-Security-Policy"), name).toContain(`frame-ancestors 'self' http://${SITE} https://${SITE}`);
      }
    });

    it("the domain lock: a top-level visit to the player URL, a frame without a Referer and an unlisted site's frame get the card, never media", async () => {
      const views: [string, { referer?: string; dest?: "iframe" | "document" }][] = [
        ["the player URL opened directly", {}],
        ["the player opened from a link on the licensed site", { referer: SITE_PAGE, dest: "document" }],
        ["the player opened from a link elsewhere", { referer: OTHER_SITE_PAGE, dest: "document" }],
        // The Referer withheld (an extension, despite the snippet's referrerpolicy): no site is known, so no media.
        ["a frame without a Referer, the licence naming a site", { dest: "iframe" }],
        ["an unlisted site's frame", { referer: OTHER_SITE_PAGE, dest: "iframe" }],
      ];
      for (const [name, view] of views) {
        const result = await embed(world.animation.id, { licence: world.licence.individual.id, ...view });
        const html = String(result.body);
        expect(result.status, name).toBe(200);
        expect(html, name).toMatch(heading(NOT_LICENSED_HERE));
        expect(html, name).toContain(`href="${appUrl()}/animations/${world.animation.slug}"`);
        expect(html, name).not.toMatch(/<video|embed-media|\/media\//);
      }
    });

    it("a frame without a Referer on a licence naming no site yet gets the card", async () => {
      const user = await createUser();
      const { subscription } = await createPaidSubscription(user.id, { type: "individual", animationId: world.animation.id });
      const result = await embed(world.animation.id, { licence: subscription.id, dest: "iframe" });
      expect(String(result.body)).toContain(NOT_LICENSED_HERE);
      expect(result.headers.get("Content-Security-Policy")).toMatch(/frame-ancestors \*(;|$)/);
    });
  });

  it("an ended licence: patients read that the video is gone, the licensee is e-mailed once, and their preview says where to renew", async () => {
    const user = await createUser();
    const { subscription } = await createPaidSubscription(user.id, { type: "individual", animationId: world.animation.id });
    await addEmbedDomain(user.id, subscription.id, "ended-clinic.example");
    await prisma.subscription.update({ where: { id: subscription.id }, data: { endDate: new Date(Date.now() - 1000), status: "expired" } });
    const patient = { licence: subscription.id, referer: "https://ended-clinic.example/knee", dest: "iframe" as const };
    for (let visit = 0; visit < 3; visit++) {
      const html = String((await embed(world.animation.id, patient)).body);
      expect(html).toMatch(heading(VIDEO_NO_LONGER_AVAILABLE));
      expect(html).not.toMatch(/Renew|purchase|<video/);
    }
    await expect.poll(() => mail.to(user.email).length).toBe(1);
    const notice = mail.to(user.email)[0]!;
    expect(notice.subject).toBe(`Your embed of ${world.animation.title} no longer plays`);
    expect(notice.text).toContain("ended-clinic.example");
    expect(notice.text).toContain(`Individual license: ${world.animation.title}`);
    expect(notice.text).toContain(`/purchase/individual/${world.animation.slug}`);
    // The licensee's own preview on My Animations: the licence's state and where to renew.
    const preview = String((await embed(world.animation.id, { licence: subscription.id, referer: `${appUrl()}/my-animations`, dest: "iframe" })).body);
    expect(preview).toContain(LICENCE_ENDED);
    expect(preview).toContain(`/purchase/individual/${world.animation.slug}`);
    // Renewed and ended again: told again, once.
    const noticed = (await prisma.subscription.findUniqueOrThrow({ where: { id: subscription.id } })).embedEndedNoticeAt!;
    await prisma.subscription.update({ where: { id: subscription.id }, data: { endDate: new Date(noticed.getTime() + 1) } });
    await embed(world.animation.id, patient);
    await embed(world.animation.id, patient);
    await expect.poll(() => mail.to(user.email).length).toBe(2);
  });

  it("an ended licence shows the card on the next request (nothing is cached)", async () => {
    const user = await createUser();
    const { subscription } = await createPaidSubscription(user.id, { type: "individual", animationId: world.animation.id });
    const framed = { licenceId: subscription.id, referer: `${appUrl()}/my-animations`, fetchDest: "iframe" };
    expect((await resolveEmbed(world.animation.id, framed)).kind).toBe("play");
    await prisma.subscription.update({ where: { id: subscription.id }, data: { endDate: new Date(Date.now() - 1) } });
    expect((await resolveEmbed(world.animation.id, framed)).kind).toBe("ended");
  });
});

describe("/embed's headers as they leave the server", () => {
  let base: string;

  beforeAll(async () => {
    base = (await testApp()).origin;
  });

  it("one policy, the licence's frame-ancestors, no X-Frame-Options; other pages keep the global ones", async () => {
    const response = await sendToApp(`/embed/${world.animation.id}?licence=${world.licence.individual.id}`, {
      headers: new Headers({ Referer: SITE_PAGE, "Sec-Fetch-Dest": "iframe" }),
    });
    expect(response.status).toBe(200);
    const csp = response.headers.get("content-security-policy")!;
    expect(csp.match(/frame-ancestors/g)).toHaveLength(1);
    expect(csp).toContain(`frame-ancestors 'self' http://${SITE} https://${SITE}`);
    expect(csp).not.toContain("frame-ancestors 'none'");
    expect(response.headers.get("x-frame-options")).toBeNull();
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");

    const page = await fetch(`${base}/help`);
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
  });
});

describe("signed media URLs", () => {
  const grant = () => ({ licenceId: world.licence.individual.id, animationId: world.animation.id, host: SITE });
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${media.url}${path}`, { headers, redirect: "manual" });
  const plays = async (licenceId = world.licence.individual.id, host = SITE) =>
    (await prisma.embedPlay.findUnique({ where: { subscriptionId_animationId_host: { subscriptionId: licenceId, animationId: world.animation.id, host } } }))
      ?.plays ?? 0;

  it("a valid URL streams the full video, with ranges, never cached", async () => {
    const response = await get(embedVideoUrl(grant()), { Range: "bytes=100-199" });
    expect(response.status).toBe(206);
    expect(response.headers.get("content-range")).toBe(`bytes 100-199/${64 * 1024}`);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(Buffer.from(await response.arrayBuffer()).equals(world.full.body.subarray(100, 200))).toBe(true);
    const whole = await get(embedVideoUrl(grant()));
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer()).equals(world.full.body)).toBe(true);
  });

  it("refused for a different animation, a changed parameter, an expired signature", async () => {
    const url = embedVideoUrl(grant());
    const otherAnimation = url.replace(world.animation.id, world.other.id);
    expect((await get(otherAnimation)).status).toBe(403);
    expect((await get(url.replace(`host=${encodeURIComponent(SITE)}`, "host=evil.example"))).status).toBe(403);
    expect((await get(url.replace(/sig=[^&]+/, "sig=AAAA"))).status).toBe(403);
    expect((await get(url.replace(/expires=\d+/, (m) => `expires=${Number(m.slice(8)) + 3600}`))).status).toBe(403);
    const expired = embedVideoUrl(grant(), Date.now() - (TTL + 1) * 1000);
    const refused = await get(expired);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ message: "This link has expired or is not valid" });
    expect((await get(`/embed-media/${world.animation.id}/video`)).status).toBe(403);
    expect((await get(`/embed-media/${world.animation.id}/other`)).status).toBe(404);
  });

  it("refused the moment the licence ends, though the signature is still fresh", async () => {
    const user = await createUser();
    const { subscription } = await createPaidSubscription(user.id, { type: "individual", animationId: world.animation.id });
    const url = embedVideoUrl({ licenceId: subscription.id, animationId: world.animation.id, host: "direct" });
    expect((await get(url, { Range: "bytes=0-9" })).status).toBe(206);
    await prisma.subscription.update({ where: { id: subscription.id }, data: { status: "canceled" } });
    expect((await get(url, { Range: "bytes=10-19" })).status).toBe(403);
    // A signature made for an expired licence is refused from the start.
    const expired = embedVideoUrl({ licenceId: world.licence.expired.id, animationId: world.animation.id, host: SITE });
    expect((await get(expired)).status).toBe(403);
  });

  it("counts one play per playback start (no Range, or bytes=0-), per licence, animation and site", async () => {
    const user = await createUser();
    const { subscription } = await createPaidSubscription(user.id, { type: "category", categoryId: world.child.id });
    const url = embedVideoUrl({ licenceId: subscription.id, animationId: world.animation.id, host: SITE });
    const direct = embedVideoUrl({ licenceId: subscription.id, animationId: world.animation.id, host: "direct" });
    expect(await plays(subscription.id)).toBe(0);
    await (await get(url, { Range: "bytes=0-" })).arrayBuffer();
    expect(await plays(subscription.id)).toBe(1);
    // The same playback's further ranges are not new plays.
    await (await get(url, { Range: "bytes=32768-" })).arrayBuffer();
    await (await get(url, { Range: "bytes=0-1023" })).arrayBuffer();
    expect(await plays(subscription.id)).toBe(1);
    await (await get(url)).arrayBuffer();
    expect(await plays(subscription.id)).toBe(2);
    // Concurrent starts lose no count.
    await Promise.all([1, 2, 3, 4].map(async () => (await get(url, { Range: "bytes=0-" })).arrayBuffer()));
    expect(await plays(subscription.id)).toBe(6);
    await (await get(direct, { Range: "bytes=0-" })).arrayBuffer();
    expect(await plays(subscription.id, "direct")).toBe(1);
    // Refused requests count nothing.
    await (await get(url.replace(/sig=[^&]+/, "sig=AAAA"))).arrayBuffer();
    expect(await plays(subscription.id)).toBe(6);

    const [licence] = await listEmbedLicences(user.id);
    expect(licence!.plays).toEqual([
      { host: SITE, plays: 6, animationTitle: world.animation.title },
      { host: "direct", plays: 1, animationTitle: world.animation.title },
    ]);
    expect(licence!.totalPlays).toBe(7);
    const admin = await listEmbedPlaysForAnimation(world.animation.id);
    expect(admin).toContainEqual({ licenceId: subscription.id, email: user.email, host: SITE, plays: 6 });
  });
});

describe("oEmbed", () => {
  const oembed = (query: Record<string, string>) => callRoute(oembedRoute, `/api/oembed?${new URLSearchParams(query)}`);

  it("answers the video type for the embed URL or the animation page, under an active licence", async () => {
    const byEmbed = await oembed({ url: `http://localhost:3000/embed/${world.animation.id}`, licence: world.licence.individual.id });
    expect(byEmbed.status).toBe(200);
    // The 4:3 video at its largest: 540 px tall.
    expect(byEmbed.body).toMatchObject({ version: "1.0", type: "video", title: world.animation.title, provider_name: "Medanim", width: 720, height: 540 });
    expect(byEmbed.body.html).toContain(`/embed/${world.animation.id}?licence=${world.licence.individual.id}`);
    const byPage = await oembed({ url: `http://localhost:3000/embed/${world.animation.id}?licence=${world.licence.category.id}`, maxwidth: "640" });
    expect(byPage.body).toMatchObject({ width: 640, height: 480 });
    const bySlug = await oembed({ url: `http://localhost:3000/animations/${world.animation.slug}`, licence: world.licence.category.id });
    expect(bySlug.status).toBe(200);
  });

  it("404 for an ended licence, no licence, a global subscription, a foreign URL", async () => {
    const queries: Record<string, string>[] = [
      { url: `/embed/${world.animation.id}`, licence: world.licence.expired.id },
      { url: `/embed/${world.animation.id}` },
      { url: `/embed/${world.animation.id}`, licence: world.licence.premium.id },
      { url: "http://localhost:3000/about", licence: world.licence.individual.id },
      { url: "/animations/%E0%A4%A", licence: world.licence.individual.id },
      { url: "http://[::1", licence: world.licence.individual.id },
      { url: `/embed/${world.animation.id}`, licence: "\ud800" },
    ];
    for (const query of queries) {
      const result = await oembed(query);
      expect(result.status).toBe(404);
      expect(result.body).toEqual({ message: "No embed found for this address" });
    }
    expect((await oembed({})).status).toBe(400);
    expect((await callRoute(oembedRoute, "/api/oembed", { method: "POST", json: {} })).status).toBe(405);
  });
});

it("the expiry of licences leaves embed rows with them (cascade)", async () => {
  const user = await createUser();
  const { subscription } = await createPaidSubscription(user.id, { type: "individual", animationId: world.animation.id });
  await addEmbedDomain(user.id, subscription.id, "gone.example");
  await prisma.subscription.delete({ where: { id: subscription.id } });
  expect(await prisma.licenceEmbedDomain.count({ where: { subscriptionId: subscription.id } })).toBe(0);
});
