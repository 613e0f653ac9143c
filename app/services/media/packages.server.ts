import crypto from "node:crypto";
import type { Readable } from "node:stream";
import { prisma } from "~/lib/db.server.ts";
import { formatDuration, formatFileSize, formatLongDate } from "~/lib/format.ts";
import { setFileStream } from "~/lib/media-store.server.ts";
import { objectIdFromPath, objectStream } from "~/lib/storage.server.ts";
import { extensionForContentType } from "~/lib/upload.server.ts";
import { vttToSrt } from "~/lib/vtt.ts";
import { planZip, type ZipPlan } from "~/lib/zip-stream.server.ts";
import { formatLicenceTermsText, formatLicenceTermsTitle } from "../licensing/licence-terms-text.ts";
import { getCurrentLicenceTerms } from "../licensing/licence-terms.server.ts";
import { checksums } from "./transcode.server.ts";

// An animation's licence package (issue 45), made from what the pipeline and the admin stored,
// never from a hand-made archive: the download MP4s (the master's size, 1080p and 720p where
// smaller) and the WebM of its current media set, each caption track as WebVTT and SubRip, each
// transcript as text, the licence terms in force, the admin's optional extra, and a README
// listing every other file with what ffprobe measured and its SHA-256. The ZIP itself is laid
// out from the files' recorded sizes and checksums (zip-stream.server.ts) and streamed.

export type PackageFileKind = "video" | "captions" | "transcript" | "terms" | "extra" | "readme";

type Source = { set: string; file: string } | { object: string } | { text: Buffer };

/** One file of a package; `name` is unique within it and names the file's own download URL. */
export type PackageFile = {
  name: string;
  /** Where it sits inside the ZIP, under the animation's folder. */
  path: string;
  kind: PackageFileKind;
  /** "MP4", "WEBM", "VTT", "SRT", "TXT", or the extra's type ("ZIP"). */
  format: string;
  /** "MP4 (H.264, AAC)", "Captions, English (WebVTT)". */
  label: string;
  width: number | null;
  height: number | null;
  duration: number | null;
  /** Null for files written when the package is (SubRip, transcripts, terms, README): not known before. */
  size: number | null;
  contentType: string;
};

type SizedFile = PackageFile & { size: number; source: Source; checksum: { sha256: string | null; crc32: number | null }; record?: Checksummed };
type Checksummed = { table: "rendition" | "object"; id: string };
export type PackedFile = PackageFile & { size: number; sha256: string; crc32: number; source: Source };

export type LicencePackage = {
  animation: { id: string; slug: string; title: string };
  files: PackedFile[];
  plan: ZipPlan;
  /** Strong ETag: the SHA-256 of every file's name, size and SHA-256 (a change to any file changes it). */
  etag: string;
  /** The hex digest behind the ETag: names the package's key in the bucket. */
  contentHash: string;
  modified: Date;
  fileName: string;
};

const TYPES: Record<string, string> = {
  MP4: "video/mp4",
  WEBM: "video/webm",
  VTT: "text/vtt; charset=utf-8",
  SRT: "application/x-subrip; charset=utf-8",
  TXT: "text/plain; charset=utf-8",
};

const packageSelect = {
  id: true,
  slug: true,
  title: true,
  duration: true,
  downloadFile: true,
  fullVideo: true,
  videoWidth: true,
  videoHeight: true,
  updatedAt: true,
  mediaSet: {
    select: {
      id: true,
      createdAt: true,
      sourceWidth: true,
      sourceHeight: true,
      duration: true,
      renditions: {
        where: { kind: "download" },
        select: { id: true, file: true, width: true, height: true, duration: true, bytes: true, codec: true, sha256: true, crc32: true },
      },
    },
  },
  captions: {
    orderBy: { language: "asc" },
    select: { id: true, language: true, label: true, path: true, transcript: true, size: true, updatedAt: true },
  },
} as const;

type PackageRow = NonNullable<Awaited<ReturnType<typeof findRows>>>[number];

function findRows(animationIds: string[]) {
  return prisma.animation.findMany({ where: { id: { in: animationIds } }, select: packageSelect });
}

/** The stored objects a package may hold: the admin's extra, and the master where no set was made from it. */
async function extrasOf(rows: PackageRow[]) {
  const ids = rows
    .flatMap((r) => [r.downloadFile, r.mediaSet?.renditions.length ? null : r.fullVideo])
    .map((stored) => objectIdFromPath(stored))
    .filter((id): id is string => Boolean(id));
  if (!ids.length) return new Map<string, { id: string; contentType: string; size: bigint; createdAt: Date; sha256: string | null; crc32: number | null }>();
  const objects = await prisma.storedObject.findMany({
    where: { id: { in: ids } },
    select: { id: true, contentType: true, size: true, createdAt: true, sha256: true, crc32: true },
  });
  return new Map(objects.map((o) => [o.id, o]));
}

/** "2160p": the short side of a frame, as video files are named. */
const lines = (width: number | null, height: number | null) => (width && height ? Math.min(width, height) : null);

/**
 * The files an animation's package holds, without reading any of them: the videos and the
 * captions' WebVTT with their sizes, the files written at download time without. The same
 * names as the package itself, so the library and the package never disagree.
 */
type StoredFacts = Awaited<ReturnType<typeof extrasOf>> extends Map<string, infer O> ? O : never;

function filesOf(row: PackageRow, objects: Map<string, StoredFacts>) {
  const extra = objects.get(objectIdFromPath(row.downloadFile) ?? "");
  // No download files from the pipeline (ffmpeg missing, or the transcode not done yet): the master as it was uploaded.
  const master = row.mediaSet?.renditions.length ? undefined : objects.get(objectIdFromPath(row.fullVideo) ?? "");
  const slug = row.slug;
  const at = (name: string, folder = "") => ({ name, path: `${slug}/${folder}${name}` });
  const files: (PackageFile & { source: Source | null; checksum: { sha256: string | null; crc32: number | null }; record?: Checksummed })[] = [];
  const renditions = [...(row.mediaSet?.renditions ?? [])].sort(
    (a, b) => Number(a.file.endsWith(".webm")) - Number(b.file.endsWith(".webm")) || (lines(b.width, b.height) ?? 0) - (lines(a.width, a.height) ?? 0),
  );
  for (const r of renditions) {
    const format = r.file.endsWith(".webm") ? "WEBM" : "MP4";
    const p = lines(r.width, r.height);
    files.push({
      ...at(`${slug}${p ? `-${p}p` : ""}.${format.toLowerCase()}`),
      kind: "video",
      format,
      label: format === "WEBM" ? "WebM (VP9, Opus)" : "MP4 (H.264, AAC)",
      width: r.width,
      height: r.height,
      duration: r.duration,
      size: Number(r.bytes),
      contentType: TYPES[format]!,
      source: { set: row.mediaSet!.id, file: r.file },
      checksum: { sha256: r.sha256, crc32: r.crc32 },
      record: { table: "rendition", id: r.id },
    });
  }
  if (master) {
    const ext = extensionForContentType(master.contentType) ?? "mp4";
    const p = lines(row.videoWidth, row.videoHeight);
    files.push({
      ...at(`${slug}${p ? `-${p}p` : ""}-master.${ext}`),
      kind: "video",
      format: ext.toUpperCase(),
      label: `Master as uploaded (${ext.toUpperCase()})`,
      width: row.videoWidth,
      height: row.videoHeight,
      duration: null,
      size: Number(master.size),
      contentType: master.contentType,
      source: { object: master.id },
      checksum: { sha256: master.sha256, crc32: master.crc32 },
      record: { table: "object", id: master.id },
    });
  }
  for (const c of row.captions) {
    const base = `${slug}.${c.language}`;
    files.push({
      ...at(`${base}.vtt`, "captions/"),
      kind: "captions",
      format: "VTT",
      label: `Captions, ${c.label} (WebVTT)`,
      width: null,
      height: null,
      duration: null,
      size: c.size || null,
      contentType: TYPES.VTT!,
      source: null,
      checksum: { sha256: null, crc32: null },
    });
    files.push({
      ...at(`${base}.srt`, "captions/"),
      kind: "captions",
      format: "SRT",
      label: `Captions, ${c.label} (SubRip)`,
      width: null,
      height: null,
      duration: null,
      size: null,
      contentType: TYPES.SRT!,
      source: null,
      checksum: { sha256: null, crc32: null },
    });
    if (c.transcript)
      files.push({
        ...at(`${base}.txt`, "transcripts/"),
        kind: "transcript",
        format: "TXT",
        label: `Transcript, ${c.label}`,
        width: null,
        height: null,
        duration: null,
        size: null,
        contentType: TYPES.TXT!,
        source: null,
        checksum: { sha256: null, crc32: null },
      });
  }
  if (extra) {
    const ext = extensionForContentType(extra.contentType) ?? "bin";
    files.push({
      ...at(`${slug}-extras.${ext}`, "extras/"),
      kind: "extra",
      format: ext.toUpperCase(),
      label: "Extras from the publisher",
      width: null,
      height: null,
      duration: null,
      size: Number(extra.size),
      contentType: extra.contentType,
      source: { object: extra.id },
      checksum: { sha256: extra.sha256, crc32: extra.crc32 },
      record: { table: "object", id: extra.id },
    });
  }
  return files;
}

/** A package exists once there is something to license: a download video or the admin's extra. */
const hasContent = (files: PackageFile[]) => files.some((f) => f.kind === "video" || f.kind === "extra");

export type PackageListing = { files: PackageFile[] };

/** What each animation's package holds, for lists (the Downloads library): two queries for any number. */
export async function listPackageFiles(animationIds: string[]): Promise<Map<string, PackageFile[]>> {
  if (!animationIds.length) return new Map();
  const rows = await findRows(animationIds);
  const extras = await extrasOf(rows);
  const listed = new Map<string, PackageFile[]>();
  for (const row of rows) {
    const files = filesOf(row, extras).map(({ source: _s, checksum: _c, record: _r, ...file }) => file);
    listed.set(row.id, hasContent(files) ? files : []);
  }
  return listed;
}

/**
 * The whole package of an animation, with every file's size and checksums: captions, transcripts
 * and texts are written here (small), the videos' and the extra's checksums come from their rows
 * (taken once, the first time, for files measured before checksums were kept). Null when the
 * animation has nothing to package.
 */
export async function loadPackage(animationId: string, { origin, now = new Date() }: { origin: string; now?: Date }): Promise<LicencePackage | null> {
  const [row] = await findRows([animationId]);
  if (!row) return null;
  const extras = await extrasOf([row]);
  const listed = filesOf(row, extras);
  if (!hasContent(listed)) return null;
  const terms = await getCurrentLicenceTerms(now);
  const captionFiles = await Promise.all(row.captions.map(async (c) => ({ caption: c, vtt: await readText(c.path) })));
  const files: SizedFile[] = [];
  for (const file of listed) {
    if (file.source) {
      files.push({ ...file, size: file.size!, source: file.source });
      continue;
    }
    const language = file.name.split(".").at(-2)!;
    const caption = captionFiles.find((c) => c.caption.language === language)!;
    const text = file.format === "VTT" ? caption.vtt : file.format === "SRT" ? vttToSrt(caption.vtt) : `${caption.caption.transcript}\n`;
    files.push(textFile(file, text));
  }
  const termsFile = textFile(
    {
      name: "LICENSE.txt",
      path: `${row.slug}/LICENSE.txt`,
      kind: "terms",
      format: "TXT",
      label: formatLicenceTermsTitle(terms),
      width: null,
      height: null,
      duration: null,
      size: null,
      contentType: TYPES.TXT!,
    },
    formatLicenceTermsText(terms),
  );
  const packed = await Promise.all([...files, termsFile].map(withChecksums));
  const readme = await withChecksums(
    textFile(
      {
        name: "README.txt",
        path: `${row.slug}/README.txt`,
        kind: "readme",
        format: "TXT",
        label: "What this package holds",
        width: null,
        height: null,
        duration: null,
        size: null,
        contentType: TYPES.TXT!,
      },
      readmeText(row, packed, origin, terms.version),
    ),
  );
  const all = [readme, ...packed];
  const modified = [
    row.mediaSet?.createdAt,
    ...row.captions.map((c) => c.updatedAt),
    new Date(terms.effectiveFrom),
    ...[...extras.values()].map((o) => o.createdAt),
  ]
    .filter((d): d is Date => Boolean(d) && d!.getTime() <= now.getTime())
    .reduce((latest, d) => (d > latest ? d : latest), new Date(0));
  const plan = planZip(all.map((f) => ({ name: f.path, size: f.size, crc32: f.crc32, modified })));
  const contentHash = crypto
    .createHash("sha256")
    .update(JSON.stringify(all.map((f) => [f.path, f.size, f.sha256])))
    .digest("hex");
  return {
    animation: { id: row.id, slug: row.slug, title: row.title },
    files: all,
    plan,
    etag: `"${contentHash.slice(0, 32)}"`,
    contentHash,
    modified,
    fileName: `${row.slug}.zip`,
  };
}

function textFile(file: PackageFile & { source?: unknown }, text: string): SizedFile {
  const data = Buffer.from(text, "utf8");
  const { source: _source, ...rest } = file;
  return { ...rest, size: data.length, source: { text: data }, checksum: { sha256: null, crc32: null } };
}

async function readText(objectPath: string) {
  const id = objectIdFromPath(objectPath);
  if (!id) return "";
  const chunks: Buffer[] = [];
  for await (const chunk of await objectStream(id, 0, Number.MAX_SAFE_INTEGER)) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}

/** A file's checksums: computed for texts, read from its row for stored files (and kept there the first time). */
async function withChecksums(file: SizedFile): Promise<PackedFile> {
  const { checksum, record, ...rest } = file;
  if (checksum.sha256 && checksum.crc32 !== null) return { ...rest, sha256: checksum.sha256, crc32: checksum.crc32 };
  const sums = "text" in file.source ? await checksums([file.source.text]) : await checksums(await openSource(file.source, 0, file.size - 1));
  if (record?.table === "rendition") await prisma.mediaRendition.update({ where: { id: record.id }, data: sums });
  if (record?.table === "object") await prisma.storedObject.update({ where: { id: record.id }, data: sums });
  return { ...rest, ...sums };
}

/** Bytes `start`..`end` (inclusive) of one file of a package. */
export async function openSource(source: Source, start: number, end: number): Promise<AsyncIterable<Buffer | Uint8Array> | Iterable<Buffer>> {
  if ("text" in source) return [source.text.subarray(start, end + 1)];
  if (end < start) return [];
  const stream: Readable = "set" in source ? await setFileStream(source.set, source.file, start, end) : await objectStream(source.object, start, end);
  return stream;
}

function readmeText(row: PackageRow, files: PackedFile[], origin: string, termsVersion: number) {
  const title = `${row.title}: licensed package`;
  const listed = files.map((f) => ({
    file: f.path.slice(row.slug.length + 1),
    what: f.label,
    frame: f.width && f.height ? `${f.width}×${f.height}` : "",
    duration: f.duration ? formatDuration(f.duration) : "",
    size: formatFileSize(f.size),
  }));
  const widths = (["file", "what", "frame", "duration"] as const).map((key) => Math.max(...listed.map((l) => l[key].length)));
  const table = listed.map((l) =>
    [l.file.padEnd(widths[0]!), l.what.padEnd(widths[1]!), l.frame.padEnd(widths[2]!), l.duration.padEnd(widths[3]!), l.size].join("  ").trimEnd(),
  );
  const master = row.mediaSet
    ? `Made from a master of ${row.mediaSet.sourceWidth}×${row.mediaSet.sourceHeight}, ${formatDuration(row.mediaSet.duration)} long, on ${formatLongDate(row.mediaSet.createdAt)}.`
    : null;
  return [
    title,
    "=".repeat(title.length),
    "",
    `The animation "${row.title}" from Medanim: ${origin}/animations/${row.slug}`,
    ...(master ? [master] : []),
    `What the licence allows is in LICENSE.txt (licence terms, version ${termsVersion}). Your licences, their end`,
    `dates and certificates are listed at ${origin}/my-animations.`,
    "",
    `Files (${files.length}, besides this README.txt):`,
    "",
    ...table.map((line) => `  ${line}`),
    "",
    "SHA-256 checksums (from inside this folder: sha256sum -c, with these lines in a file):",
    "",
    ...files.map((f) => `${f.sha256}  ${f.path.slice(row.slug.length + 1)}`),
    "",
  ].join("\n");
}

/** An animation's id by its slug, for the download URLs (which name the slug). */
export async function animationForDownload(slug: string) {
  return prisma.animation.findUnique({
    where: { slug },
    select: { id: true, slug: true, isActive: true, categoryId: true, category: { select: { parentId: true } } },
  });
}
