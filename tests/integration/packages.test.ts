import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { saveObject } from "~/lib/storage.server.ts";
import { parseVtt } from "~/lib/vtt.ts";
import { stopJobQueue } from "~/lib/jobs.server.ts";
import { claimJob, queueTranscode, runTranscodeJob } from "~/services/media/media-jobs.server.ts";
import { sendToApp, testApp } from "../helpers/app.ts";
import { createUser, sessionCookieFor } from "../helpers/factories.ts";
import { fileBytes } from "./media-helpers.ts";

// A licence package as a licensee receives it, through the app's front door: a real transcode
// (ffmpeg, a 4-second 1024×768 master, so the package has its own size and a 720p MP4) runs as
// the queue's worker would run it; the package is then fetched over HTTP and opened with unzip,
// ffprobe and sha256sum.

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-packages-"));
const VTT = "WEBVTT\n\n00:00.000 --> 00:01.500\nThe nose is reshaped.\n\n00:01.500 --> 00:03.000\n<v Dr. Lee>Recovery takes <b>weeks</b>.</v>\n";

let slug: string;
let animationId: string;
let extra: Buffer;
let licenceId: string;
const cookies: Record<"licensee" | "premium" | "free" | "admin", string> = { licensee: "", premium: "", free: "", admin: "" };
let licenseeId: string;
let categoryId: string;

const get = (target: string, cookie?: string, extraHeaders: Record<string, string> = {}) =>
  sendToApp(target, { headers: new Headers({ ...(cookie ? { Cookie: cookie } : {}), ...extraHeaders }) });

beforeAll(async () => {
  const master = path.join(workDir, "master.mp4");
  // prettier-ignore
  execFileSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc2=duration=4:size=1024x768:rate=25", "-f", "lavfi", "-i", "sine=frequency=440:duration=4", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-shortest", master]);
  const video = await saveObject({ body: fs.createReadStream(master), contentType: "video/mp4", kind: "video" });
  extra = fileBytes("zip", 20_000);
  const extraObject = await saveObject({ body: extra, contentType: "application/zip", kind: "download" });
  const caption = await saveObject({ body: Buffer.from(VTT), contentType: "text/vtt", kind: "caption" });
  const category = await prisma.category.create({ data: { name: `Nose ${crypto.randomUUID()}`, slug: `nose-${crypto.randomUUID()}` } });
  slug = `rhinoplasty_${crypto.randomBytes(3).toString("hex")}`;
  const animation = await prisma.animation.create({
    data: {
      title: "Rhinoplasty",
      slug,
      description: "How a nose is reshaped.",
      fullVideo: video.path,
      downloadFile: extraObject.path,
      categoryId: category.id,
      duration: 4,
    },
  });
  animationId = animation.id;
  categoryId = category.id;
  await prisma.animationCaption.create({
    data: { animationId, language: "en", label: "English", path: caption.path, transcript: parseVtt(VTT).transcript, size: VTT.length, cueCount: 2 },
  });
  const queued = await queueTranscode(animationId);
  const job = await claimJob(queued!.id, "test-worker");
  expect(await runTranscodeJob(job!, "test-worker")).toBe("done");

  const licensee = await createUser();
  licenseeId = licensee.id;
  const licence = await prisma.subscription.create({
    data: {
      userId: licensee.id,
      type: "category",
      categoryId: category.id,
      status: "active",
      startDate: new Date(),
      endDate: new Date(Date.now() + 365 * 86_400_000),
    },
  });
  licenceId = licence.id;
  cookies.licensee = await sessionCookieFor(licensee.id);
  cookies.premium = await sessionCookieFor((await createUser({ accountType: "premium" })).id);
  cookies.free = await sessionCookieFor((await createUser()).id);
  cookies.admin = await sessionCookieFor((await createUser({ role: "admin" })).id);
}, 180_000);

afterAll(async () => {
  await stopJobQueue();
  fs.rmSync(workDir, { recursive: true, force: true });
});

/** The README's checksum lines: "<sha256>  <path inside the animation's folder>". */
function readmeFiles(readme: string) {
  return [...readme.matchAll(/^([0-9a-f]{64}) {2}(.+)$/gm)].map(([, sha, file]) => ({ sha: sha!, file: file! }));
}

function probe(file: string) {
  const out = execFileSync("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name,width,height", "-of", "json", file], {
    encoding: "utf8",
  });
  return (JSON.parse(out) as { streams: { codec_name: string; width: number; height: number }[] }).streams[0]!;
}

describe("the licence package", () => {
  let zip: Buffer;
  let folder: string;

  it("is a ZIP with a Content-Length and a content hash, holding exactly the files its README lists", async () => {
    const response = await get(`/packages/${slug}.zip`, cookies.licensee);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="${slug}.zip"`);
    expect(response.headers.get("accept-ranges")).toBe("bytes");
    expect(response.headers.get("etag")).toMatch(/^"[0-9a-f]{32}"$/);
    expect(Number(response.headers.get("content-length"))).toBe(response.body.length);
    zip = response.body;
    const file = path.join(workDir, "package.zip");
    fs.writeFileSync(file, zip);
    expect(execFileSync("unzip", ["-tq", file], { encoding: "utf8" })).toMatch(/No errors detected/);
    execFileSync("unzip", ["-q", "-o", file, "-d", path.join(workDir, "out")]);
    folder = path.join(workDir, "out", slug);

    const entries = execFileSync("unzip", ["-Z1", file], { encoding: "utf8" }).trim().split("\n").sort();
    const readme = fs.readFileSync(path.join(folder, "README.txt"), "utf8");
    const listed = readmeFiles(readme);
    expect(entries).toEqual([`${slug}/README.txt`, ...listed.map((l) => `${slug}/${l.file}`)].sort());
    expect(listed.map((l) => l.file).sort()).toEqual(
      [
        `${slug}-768p.mp4`,
        `${slug}-720p.mp4`,
        `${slug}-768p.webm`,
        `captions/${slug}.en.vtt`,
        `captions/${slug}.en.srt`,
        `transcripts/${slug}.en.txt`,
        `extras/${slug}-extras.zip`,
        "LICENSE.txt",
      ].sort(),
    );
    // Every checksum the README gives is the file's own.
    fs.writeFileSync(path.join(workDir, "sums"), listed.map((l) => `${l.sha}  ${l.file}`).join("\n") + "\n");
    expect(execFileSync("sha256sum", ["-c", path.join(workDir, "sums")], { cwd: folder, encoding: "utf8" })).not.toMatch(/FAILED/);
  });

  it("holds videos that decode at the resolutions the README and the page state, captions that parse, the terms and the extra", async () => {
    const readme = fs.readFileSync(path.join(folder, "README.txt"), "utf8");
    const videos = [`${slug}-768p.mp4`, `${slug}-720p.mp4`, `${slug}-768p.webm`];
    const page = (await get(`/animations/${slug}`, cookies.licensee)).body.toString("utf8");
    for (const video of videos) {
      const stream = probe(path.join(folder, video));
      expect(stream.codec_name).toBe(video.endsWith(".webm") ? "vp9" : "h264");
      expect(readme).toMatch(new RegExp(`${video.replace(/\./g, "\\.")}\\s+\\S.*${stream.width}×${stream.height}\\s+0:04`));
      expect(page).toContain(`${Math.min(stream.width, stream.height)}p`);
    }
    expect(probe(path.join(folder, `${slug}-720p.mp4`))).toMatchObject({ width: 960, height: 720 });
    // The page's claim names exactly the package's videos.
    expect(page).toContain('data-testid="animation-formats">MP4 768p, 720p and WebM 768p<');
    expect(parseVtt(fs.readFileSync(path.join(folder, "captions", `${slug}.en.vtt`), "utf8")).cueCount).toBe(2);
    const srt = fs.readFileSync(path.join(folder, "captions", `${slug}.en.srt`), "utf8");
    expect(srt).toBe("1\n00:00:00,000 --> 00:00:01,500\nThe nose is reshaped.\n\n2\n00:00:01,500 --> 00:00:03,000\nRecovery takes <b>weeks</b>.\n");
    expect(fs.readFileSync(path.join(folder, "transcripts", `${slug}.en.txt`), "utf8")).toBe("The nose is reshaped.\nRecovery takes weeks.\n");
    const terms = await prisma.licenceTerms.findFirstOrThrow({ orderBy: { version: "desc" } });
    expect(fs.readFileSync(path.join(folder, "LICENSE.txt"), "utf8")).toContain(terms.grant.split(" ").slice(0, 6).join(" "));
    expect(fs.readFileSync(path.join(folder, "extras", `${slug}-extras.zip`)).equals(extra)).toBe(true);
  });

  it("resumes with a range, and the resumed bytes make the same archive", async () => {
    const first = await get(`/packages/${slug}.zip`, cookies.licensee, { Range: "bytes=0-9999" });
    expect(first.status).toBe(206);
    expect(first.headers.get("content-range")).toBe(`bytes 0-9999/${zip.length}`);
    const etag = first.headers.get("etag")!;
    const rest = await get(`/packages/${slug}.zip`, cookies.licensee, { Range: "bytes=10000-", "If-Range": etag });
    expect(rest.status).toBe(206);
    expect(Buffer.concat([first.body, rest.body]).equals(zip)).toBe(true);
    // A changed package (another ETag) is sent whole rather than spliced.
    const stale = await get(`/packages/${slug}.zip`, cookies.licensee, { Range: "bytes=10000-", "If-Range": '"0000"' });
    expect(stale.status).toBe(200);
    expect(stale.body.length).toBe(zip.length);
  });

  it("gives each file on its own, with its SHA-256", async () => {
    const webm = await get(`/packages/${slug}/${slug}-768p.webm`, cookies.licensee);
    expect(webm.status).toBe(200);
    expect(webm.headers.get("content-type")).toBe("video/webm");
    expect(webm.body.equals(fs.readFileSync(path.join(folder, `${slug}-768p.webm`)))).toBe(true);
    expect(webm.headers.get("repr-digest")).toBe(`sha-256=:${crypto.createHash("sha256").update(webm.body).digest("base64")}:`);
    const srt = await get(`/packages/${slug}/${slug}.en.srt`, cookies.licensee);
    expect(srt.body.toString("utf8")).toBe(fs.readFileSync(path.join(folder, "captions", `${slug}.en.srt`), "utf8"));
    expect((await get(`/packages/${slug}/nothing.mp4`, cookies.licensee)).status).toBe(404);
  });

  it("is refused to anyone without the download right, for the package and every file", async () => {
    const names = readmeFiles(fs.readFileSync(path.join(folder, "README.txt"), "utf8")).map((l) => path.basename(l.file));
    for (const target of [`/packages/${slug}.zip`, ...names.map((name) => `/packages/${slug}/${name}`), `/packages/${slug}/README.txt`]) {
      expect((await get(target)).status, target).toBe(401);
      for (const who of ["premium", "free"] as const) {
        const response = await get(target, cookies[who]);
        expect(response.status, `${who} ${target}`).toBe(403);
        expect(JSON.parse(response.body.toString("utf8"))).toEqual({ message: "You do not have access to this file" });
      }
    }
    // Nobody learns whether an animation exists from the answer.
    expect((await get(`/packages/no_such_animation.zip`, cookies.free)).status).toBe(403);
    expect((await get(`/packages/${slug}.zip`, cookies.admin)).status).toBe(200);
  });

  it("records every download: who, what, under which licence and how many bytes", async () => {
    const rows = await prisma.download.findMany({ where: { userId: licenseeId }, orderBy: { createdAt: "asc" } });
    expect(
      rows.map((r) => ({ file: r.file, bytes: Number(r.bytes), rangeStart: r.rangeStart === null ? null : Number(r.rangeStart), complete: r.complete })),
    ).toEqual([
      { file: "package", bytes: zip.length, rangeStart: null, complete: true },
      { file: "package", bytes: 10_000, rangeStart: 0, complete: true },
      { file: "package", bytes: zip.length - 10_000, rangeStart: 10_000, complete: true },
      { file: "package", bytes: zip.length, rangeStart: null, complete: true },
      { file: `${slug}-768p.webm`, bytes: expect.any(Number), rangeStart: null, complete: true },
      { file: `${slug}.en.srt`, bytes: expect.any(Number), rangeStart: null, complete: true },
    ]);
    expect(new Set(rows.map((r) => r.subscriptionId))).toEqual(new Set([licenceId]));
    expect(new Set(rows.map((r) => r.animationId))).toEqual(new Set([animationId]));
    // Billing shows it beside the licence it was taken under.
    const billing = (await get("/billing", cookies.licensee)).body.toString("utf8").replaceAll("<!-- -->", "");
    expect(billing).toMatch(new RegExp(`data-testid="licence-downloads">Downloaded ${rows.length} times \\([\\d.]+ [KM]B\\), last on`));
  });
});

it("records a download the client abandoned as incomplete, with the bytes it took", async () => {
  const { port } = await testApp();
  await new Promise<void>((resolve, reject) => {
    const request = http.get(
      { host: "127.0.0.1", port, path: `/packages/${slug}.zip`, headers: { Cookie: cookies.licensee, Host: "localhost:3000" } },
      (response) => {
        response.once("data", () => {
          request.destroy();
          resolve();
        });
      },
    );
    request.on("error", () => undefined);
    request.setTimeout(10_000, () => reject(new Error("no data")));
  });
  await expect
    .poll(async () => (await prisma.download.findFirst({ where: { userId: licenseeId }, orderBy: { createdAt: "desc" } }))?.complete, { timeout: 10_000 })
    .toBe(false);
  await prisma.download.deleteMany({ where: { userId: licenseeId, complete: false } });
});

describe("a package before any transcode", () => {
  it("carries the master as it was uploaded (no ffmpeg, or the pipeline still at work), named as such, and nothing it does not hold", async () => {
    const master = fileBytes("mp4", 30_000);
    const stored = await saveObject({ body: master, contentType: "video/mp4", kind: "video" });
    const raw = await prisma.animation.create({
      data: {
        title: "Untranscoded",
        slug: `untranscoded_${crypto.randomBytes(3).toString("hex")}`,
        description: "x",
        fullVideo: stored.path,
        videoWidth: 1280,
        videoHeight: 720,
        categoryId,
      },
    });
    const response = await get(`/packages/${raw.slug}.zip`, cookies.licensee);
    expect(response.status).toBe(200);
    const file = path.join(workDir, "raw.zip");
    fs.writeFileSync(file, response.body);
    expect(execFileSync("unzip", ["-Z1", file], { encoding: "utf8" }).trim().split("\n").sort()).toEqual(
      [`${raw.slug}/LICENSE.txt`, `${raw.slug}/README.txt`, `${raw.slug}/${raw.slug}-720p-master.mp4`].sort(),
    );
    expect(execFileSync("unzip", ["-p", file, `${raw.slug}/${raw.slug}-720p-master.mp4`]).equals(master)).toBe(true);
    const readme = execFileSync("unzip", ["-p", file, `${raw.slug}/README.txt`], { encoding: "utf8" });
    expect(readme).toContain("Master as uploaded (MP4)");
    expect(readme).not.toMatch(/WebM|Made from a master/);
    // An animation with nothing to package has no package.
    const bare = await prisma.animation.create({
      data: { title: "Nothing", slug: `nothing_${crypto.randomBytes(3).toString("hex")}`, description: "x", categoryId },
    });
    expect((await get(`/packages/${bare.slug}.zip`, cookies.licensee)).status).toBe(404);
    await prisma.animation.deleteMany({ where: { id: { in: [raw.id, bare.id] } } });
  });
});

describe("the Downloads library", () => {
  it("lists every licensed animation with its package and single files, on /my-animations, /downloads and GET /api/downloads", async () => {
    // Added to the category after the licence was bought: the licence covers it too.
    const later = await prisma.animation.create({
      data: { title: "Septoplasty", slug: `septoplasty_${crypto.randomBytes(3).toString("hex")}`, description: "x", categoryId },
    });
    for (const page of ["/my-animations", "/downloads"]) {
      const html = (await get(page, cookies.licensee)).body.toString("utf8");
      expect(html).toContain(`href="/packages/${slug}.zip"`);
      expect(html).toContain(`href="/packages/${slug}/${slug}-768p.webm"`);
      expect(html).toContain(`href="/packages/${slug}/${slug}.en.srt"`);
      expect(html).toContain("Septoplasty");
      expect(html).toContain("The download package is being prepared.");
    }
    // Filters: by licence kind (this member holds only a category licence) and by category.
    expect((await get("/my-animations?licence=individual", cookies.licensee)).body.toString("utf8")).not.toContain(`/packages/${slug}.zip`);
    expect((await get(`/my-animations?category=${categoryId}&q=rhino`, cookies.licensee)).body.toString("utf8")).toContain(`/packages/${slug}.zip`);

    const api = await get("/api/downloads", cookies.licensee);
    expect(api.status).toBe(200);
    expect(api.headers.get("x-total-count")).toBe("2");
    const entries = JSON.parse(api.body.toString("utf8")) as {
      slug: string;
      packageHref: string | null;
      licenceId: string;
      files: { name: string; href: string; width: number | null }[];
      downloads: { count: number };
    }[];
    const entry = entries.find((e) => e.slug === slug)!;
    expect(entry).toMatchObject({ packageHref: `/packages/${slug}.zip`, licenceId });
    expect(entry.files.find((f) => f.name === `${slug}-720p.mp4`)).toMatchObject({ href: `/packages/${slug}/${slug}-720p.mp4`, width: 960 });
    expect(entry.downloads.count).toBeGreaterThan(0);
    expect(entries.find((e) => e.slug === later.slug)).toMatchObject({ packageHref: null, files: [] });
    expect((await get("/api/downloads")).status).toBe(401);
    // Nobody else's library shows it.
    expect(JSON.parse((await get("/api/downloads", cookies.premium)).body.toString("utf8"))).toEqual([]);
  });

  it("puts the package and its files on the animation's page for the licensee only", async () => {
    const licensee = (await get(`/animations/${slug}`, cookies.licensee)).body.toString("utf8");
    expect(licensee).toContain(`href="/packages/${slug}.zip"`);
    expect(licensee).toContain("Download package (ZIP)");
    const premium = (await get(`/animations/${slug}`, cookies.premium)).body.toString("utf8");
    expect(premium).not.toContain("/packages/");
  });
});
