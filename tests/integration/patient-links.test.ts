import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { LINK_ENDED, NOT_COVERED } from "~/validation/patient-links.ts";
import { sendToApp } from "../helpers/app.ts";
import { createPaidSubscription, createUser, sessionCookieFor } from "../helpers/factories.ts";
import { useMailCapture } from "../helpers/mail-capture.ts";
import { createPractice } from "~/services/practices/practices.server.ts";
import { fileBytes, storeFile } from "./media-helpers.ts";

// Patient links through the front door (issue 46): the clinic creates, e-mails and revokes them
// on /licences/{id}; the patient opens /p/{token} with no account and plays the full video at
// URLs signed for the link, until it expires or is revoked, never after.

const mail = useMailCapture();
const ORIGIN = new URL(process.env.APP_URL ?? "http://localhost:3000").origin;
const DAY = 24 * 60 * 60 * 1000;

let world: Awaited<ReturnType<typeof createWorld>>;

async function createWorld() {
  const n = crypto.randomUUID().slice(0, 8);
  const category = await prisma.category.create({ data: { name: `Knee ${n}`, slug: `knee-${n}` } });
  const full = await storeFile("video", "mp4", "video/mp4", 32 * 1024);
  const en = await storeFile("caption", "mp4", "text/vtt", 120);
  const es = await storeFile("caption", "mp4", "text/vtt", 120);
  const animation = await prisma.animation.create({
    data: {
      title: "Knee arthroscopy",
      slug: `knee_${n}`,
      description: "How a knee is repaired.",
      fullVideo: full.path,
      categoryId: category.id,
      captions: {
        create: [
          { language: "en", label: "English", path: en.path, transcript: "The surgeon repairs the knee." },
          { language: "es", label: "Español", path: es.path, transcript: "El cirujano repara la rodilla." },
        ],
      },
    },
  });
  const elsewhere = await prisma.animation.create({ data: { title: "Hip", slug: `hip_${n}`, description: "Hip.", fullVideo: full.path } });
  const clinic = await createUser({ firstName: "Ana", lastName: "Ruiz" });
  const { subscription } = await createPaidSubscription(clinic.id, { type: "category", categoryId: category.id });
  return { animation, elsewhere, clinic, licence: subscription, full, cookie: await sessionCookieFor(clinic.id) };
}

beforeAll(async () => {
  world = await createWorld();
});

const post = (path: string, cookie: string, form: Record<string, string | string[]>) => {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(form)) for (const v of [value].flat()) body.append(name, v);
  return sendToApp(path, {
    method: "POST",
    headers: new Headers({ "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN, Cookie: cookie }),
    body: body.toString(),
  });
};
const get = (path: string, headers: Record<string, string> = {}) => sendToApp(path, { headers: new Headers(headers) });
const text = (response: { body: Buffer }) =>
  response.body
    .toString("utf8")
    .replace(/<!-- -->/g, "")
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&");

async function createLink(form: Record<string, string | string[]> = {}) {
  const before = new Set((await prisma.patientLink.findMany({ where: { subscriptionId: world.licence.id }, select: { id: true } })).map((l) => l.id));
  const response = await post(`/licences/${world.licence.id}`, world.cookie, { intent: "create", animationIds: world.animation.id, ...form });
  expect(
    response.status,
    text(response)
      .match(/text-red-700">[^<]*/g)
      ?.join(" | "),
  ).toBe(302);
  const created = await prisma.patientLink.findFirstOrThrow({ where: { subscriptionId: world.licence.id, id: { notIn: [...before] } } });
  return created;
}

describe("the clinic's licence page", () => {
  it("creates a link with a QR code; the token is 256 random bits", async () => {
    const link = await createLink({ label: "Tuesday's knees", note: "Please watch before Tuesday.", language: "es" });
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link.language).toBe("es");
    // The default expiry: 30 days.
    expect(Math.abs(link.expiresAt.getTime() - (Date.now() + 30 * DAY))).toBeLessThan(60_000);
    const page = text(await get(`/licences/${world.licence.id}`, { Cookie: world.cookie }));
    expect(page).toContain(`/p/${link.token}`);
    expect(page).toContain("Tuesday's knees");
    expect(page).toMatch(/data-testid="patient-link-qr"[^>]*><svg/);
    expect(page).toContain("Not opened yet.");
    const tokens = [await createLink(), await createLink(), await createLink()];
    expect(new Set(tokens.map((t) => t.token)).size).toBe(3);
  });

  it("refuses an animation the licence does not cover, an expiry past the licence's end, and outsiders", async () => {
    const foreign = await post(`/licences/${world.licence.id}`, world.cookie, { intent: "create", animationIds: world.elsewhere.id });
    expect(foreign.status).toBe(400);
    expect(text(foreign)).toContain(NOT_COVERED);
    const late = new Date(world.licence.endDate!.getTime() + 40 * DAY).toISOString().slice(0, 10);
    const tooLate = await post(`/licences/${world.licence.id}`, world.cookie, { intent: "create", animationIds: world.animation.id, expiresOn: late });
    expect(tooLate.status).toBe(400);
    expect(text(tooLate)).toContain("A link cannot outlive its license");
    const stranger = await createUser();
    const cookie = await sessionCookieFor(stranger.id);
    expect((await get(`/licences/${world.licence.id}`, { Cookie: cookie })).status).toBe(404);
    expect((await post(`/licences/${world.licence.id}`, cookie, { intent: "create", animationIds: world.animation.id })).status).toBe(404);
    expect((await get(`/licences/${world.licence.id}`)).status).toBe(302);
  });

  it("e-mails the link in the clinic's name, with no tracking image", async () => {
    const link = await createLink({ recipientEmail: "patient@example.com", note: "See you soon" });
    await expect.poll(() => mail.to("patient@example.com").length).toBe(1);
    const message = mail.to("patient@example.com")[0]!;
    expect(message.raw).toMatch(/^From: "?Ana Ruiz"? </m);
    expect(message.text).toContain(`/p/${link.token}`);
    expect(message.text).toContain("See you soon");
    expect(message.raw).not.toMatch(/<img/i);
    const sent = await prisma.patientLink.findUniqueOrThrow({ where: { id: link.id } });
    expect(sent.recipientEmail).toBe("patient@example.com");
    expect(sent.sentAt).not.toBeNull();
  });
});

describe("the patient's page", () => {
  it("plays the full video with no account, in the link's language, never indexed, and records the first opening", async () => {
    const link = await createLink({ note: "Before your visit", language: "es" });
    const response = await get(`/p/${link.token}`, { "Accept-Language": "en-US" });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-robots-tag")).toContain("noindex");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const html = text(response);
    expect(html).toContain('<html lang="es"');
    expect(html).toContain('name="robots" content="noindex, nofollow"');
    expect(html).toContain("De Ana Ruiz");
    expect(html).toContain("Before your visit");
    expect(html).not.toMatch(/Premium|purchase|License \$/);
    // The Spanish track is on by default; both transcripts are offered.
    expect(html).toMatch(/<track kind="captions" srcLang="es" label="Español" src="[^"]+" default=""/);
    expect(html).toContain("El cirujano repara la rodilla.");
    const src = /<video[^>]* src="([^"]+)"/.exec(html)![1]!;
    expect(src).toContain(`/embed-media/${world.animation.id}/video?link=${link.id}`);
    const video = await get(src, { Range: "bytes=0-99" });
    expect(video.status).toBe(206);
    expect(video.body.equals(world.full.body.subarray(0, 100))).toBe(true);
    const opened = await prisma.patientLink.findUniqueOrThrow({ where: { id: link.id } });
    expect(opened.firstOpenedAt).not.toBeNull();
    // A second opening keeps the first time.
    await get(`/p/${link.token}`);
    expect((await prisma.patientLink.findUniqueOrThrow({ where: { id: link.id } })).firstOpenedAt).toEqual(opened.firstOpenedAt);
  });

  it("stops at revocation: the page reads the neutral message and the signed URL stops at once", async () => {
    const link = await createLink();
    const src = /<video[^>]* src="([^"]+)"/.exec(text(await get(`/p/${link.token}`)))![1]!;
    expect((await get(src, { Range: "bytes=0-9" })).status).toBe(206);
    const revoke = await post(`/licences/${world.licence.id}`, world.cookie, { intent: "revoke", linkId: link.id });
    expect(revoke.status).toBe(302);
    const page = await get(`/p/${link.token}`);
    expect(page.status).toBe(410);
    expect(text(page)).toContain(LINK_ENDED);
    expect(text(page)).not.toContain("<video");
    expect((await get(src, { Range: "bytes=10-19" })).status).toBe(403);
  });

  it("stops at expiry, and when its licence ends", async () => {
    const link = await createLink();
    const src = /<video[^>]* src="([^"]+)"/.exec(text(await get(`/p/${link.token}`)))![1]!;
    await prisma.patientLink.update({ where: { id: link.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await get(`/p/${link.token}`)).status).toBe(410);
    expect((await get(src, { Range: "bytes=0-9" })).status).toBe(403);

    const second = await createLink();
    const secondSrc = /<video[^>]* src="([^"]+)"/.exec(text(await get(`/p/${second.token}`)))![1]!;
    const user = await createUser();
    const { subscription } = await createPaidSubscription(user.id, { type: "individual", animationId: world.animation.id });
    // Another licence's link for the same animation cannot borrow this link's signature.
    expect(
      (
        await get(
          secondSrc.replace(
            second.id,
            (
              await prisma.patientLink.create({
                data: { token: "x".repeat(43), subscriptionId: subscription.id, createdById: user.id, expiresAt: new Date(Date.now() + DAY) },
              })
            ).id,
          ),
          { Range: "bytes=0-9" },
        )
      ).status,
    ).toBe(403);
    await prisma.subscription.update({ where: { id: world.licence.id }, data: { status: "canceled" } });
    try {
      expect((await get(`/p/${second.token}`)).status).toBe(410);
      expect((await get(secondSrc, { Range: "bytes=0-9" })).status).toBe(403);
    } finally {
      await prisma.subscription.update({ where: { id: world.licence.id }, data: { status: "active" } });
    }
  });

  it("an animation withdrawn from the catalogue drops out; with none left the patient reads that the video is gone", async () => {
    const withdrawn = await prisma.animation.create({
      data: {
        title: "Meniscus",
        slug: `meniscus_${crypto.randomUUID().slice(0, 8)}`,
        description: "Meniscus.",
        fullVideo: world.full.path,
        categoryId: world.animation.categoryId,
      },
    });
    const link = await createLink({ animationIds: withdrawn.id });
    expect(text(await get(`/p/${link.token}`))).toContain("Meniscus");
    await prisma.animation.update({ where: { id: withdrawn.id }, data: { isActive: false } });
    const page = await get(`/p/${link.token}`);
    expect(page.status).toBe(410);
    expect(text(page)).toContain("This video is no longer available");
    expect(text(page)).not.toContain("<video");
  });

  it("an unknown or malformed token reads the same neutral message, 404", async () => {
    for (const token of ["A".repeat(43), "short", "x".repeat(200)]) {
      const response = await get(`/p/${token}`);
      expect(response.status, token).toBe(404);
      expect(text(response)).toContain(LINK_ENDED);
    }
  });

  it("is in no sitemap", async () => {
    const link = await createLink();
    const sitemaps = await Promise.all(["/sitemap.xml", "/sitemap-pages.xml", "/sitemap-animations.xml"].map((path) => get(path)));
    for (const sitemap of sitemaps) expect(text(sitemap)).not.toContain("/p/");
    expect(text(await get("/robots.txt"))).not.toContain(link.token);
  });
});

describe("a practice's links", () => {
  it("show the practice's name and the logo a manager uploaded on /practice, which anyone may fetch", async () => {
    const owner = await createUser({ firstName: "Olga", lastName: "Owner" });
    const practice = await createPractice(owner, { legalName: "Clínica Norte, S.L.", address: "Calle 1", country: "ES", taxId: undefined });
    const { subscription } = await createPaidSubscription(owner.id, { type: "category", categoryId: world.animation.categoryId! });
    await prisma.subscription.update({ where: { id: subscription.id }, data: { practiceId: practice.id, seats: 3 } });
    const cookie = await sessionCookieFor(owner.id);

    // The logo's form: multipart, the file streamed to storage.
    const png = fileBytes("png", 2048);
    const boundary = "logo-boundary";
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="intent"\r\n\r\nlogo\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="logo"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n`),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const saved = await sendToApp("/practice", {
      method: "POST",
      headers: new Headers({ "Content-Type": `multipart/form-data; boundary=${boundary}`, Origin: ORIGIN, Cookie: cookie }),
      body,
    });
    expect(saved.status).toBe(302);
    const logo = (await prisma.practice.findUniqueOrThrow({ where: { id: practice.id } })).logo!;
    expect(logo).toMatch(/^\/objects\/uploads\//);

    const created = await post(`/licences/${subscription.id}`, cookie, { intent: "create", animationIds: world.animation.id });
    expect(created.status).toBe(302);
    const link = await prisma.patientLink.findFirstOrThrow({ where: { subscriptionId: subscription.id } });
    const html = text(await get(`/p/${link.token}`));
    expect(html).toContain("From Clínica Norte, S.L.");
    expect(html).toContain(`src="${logo}"`);
    // A patient has no account: the logo is a public object once attached.
    const image = await get(logo);
    expect(image.status).toBe(200);
    expect(image.body.subarray(0, 8).equals(png.subarray(0, 8))).toBe(true);

    // Removed: the link shows the name alone.
    const removed = await post("/practice", cookie, { intent: "logo", logoRemove: "on" });
    expect(removed.status).toBe(302);
    expect((await prisma.practice.findUniqueOrThrow({ where: { id: practice.id } })).logo).toBeNull();
    expect(text(await get(`/p/${link.token}`))).not.toContain(logo);
  });
});
