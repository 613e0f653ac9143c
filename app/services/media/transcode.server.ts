import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { measureDuration, probeVideoSize, runFfmpeg, type MediaProbe } from "~/lib/ffmpeg.server.ts";
import { AUDIO_KBPS, previewRung, storyboardPlan, type Rung } from "~/lib/media-ladder.ts";
import { PREVIEW_SECONDS, previewSecondsOf } from "~/lib/preview.ts";

// The pipeline's steps, each one ffmpeg run writing into the job's work directory in the
// layout the set is published with (media-store.server.ts):
//
//   hls/master.m3u8, hls/{360p,…}/index.m3u8 + init_N.mp4 + seg-NNNNN.m4s   the ladder (CMAF, 2 s segments)
//   progressive.mp4                     the preview rung remuxed whole, moov first (no-JS, embed)
//   preview.mp4, preview/index.m3u8 …   the first 10 s of the preview rung, MP4 and HLS
//   download.mp4, download.webm         H.264 and VP9 at the master's own size
//   download-1080p.mp4, download-720p.mp4   H.264 at 1080p and 720p, made only from a larger master
//   storyboard.jpg, storyboard.vtt      thumbnails every few seconds and their WebVTT map
//
// A finished step leaves a marker in .done/, so a job that is run again on the same instance
// (after a crash or a shutdown) resumes after its last finished step; a step that was cut
// short is removed and run again. Keyframes every 2 s in every rung keep segments aligned
// across rungs (a switch never waits) and let the preview end exactly at 10 s.

/**
 * Short segments start playback sooner: the first 360p segment (~930 kbit/s with sound) of 2 s
 * is ~230 KB, about 1.2 s on a 1.6 Mbit/s phone line; a 4 s one took twice that.
 */
export const SEGMENT_SECONDS = 2;
const KEYFRAME_SECONDS = 2;

/** The smaller MP4s a licence package offers beside the master's own size, when the master is larger. */
export const DOWNLOAD_HEIGHTS = [1080, 720] as const;
type DownloadHeight = (typeof DOWNLOAD_HEIGHTS)[number];

export type StepName = "hls" | "progressive" | "preview" | "download-mp4" | `download-mp4-${DownloadHeight}p` | "download-webm" | "storyboard";

/** The steps a master needs, in order: the smaller download MP4s only below its own size. */
export function stepsFor(probe: Pick<MediaProbe, "width" | "height">): StepName[] {
  const smaller = DOWNLOAD_HEIGHTS.filter((height) => Math.min(probe.width, probe.height) > height).map((height) => `download-mp4-${height}p` as const);
  return ["hls", "progressive", "preview", "download-mp4", ...smaller, "download-webm", "storyboard"];
}

export type StepProgress = { step: StepName; label: string; status: "waiting" | "running" | "done" | "failed"; percent: number; error?: string };

export function stepLabels(rungs: readonly Rung[]): Record<StepName, string> {
  const preview = previewRung(rungs);
  return {
    hls: `HLS ${rungs.map((rung) => rung.name).join(" · ")}`,
    progressive: `Progressive MP4 ${preview.name}`,
    preview: `10-second preview ${preview.name}`,
    "download-mp4": "Download MP4 (H.264)",
    "download-mp4-1080p": "Download MP4 (H.264) 1080p",
    "download-mp4-720p": "Download MP4 (H.264) 720p",
    "download-webm": "Download WebM (VP9)",
    storyboard: "Storyboard",
  };
}

type StepContext = {
  input: string;
  dir: string;
  probe: MediaProbe;
  rungs: Rung[];
  signal?: AbortSignal;
  /** Position reached in the step's output, 0..1. */
  onProgress: (fraction: number) => void;
};

// prettier-ignore
const H264 = [
  "-c:v", "libx264",
  "-pix_fmt", "yuv420p",
  "-profile:v", "high",
  "-sc_threshold", "0",
  "-force_key_frames", `expr:gte(t,n_forced*${KEYFRAME_SECONDS})`,
];
const AAC = ["-c:a", "aac", "-b:a", `${AUDIO_KBPS}k`, "-ac", "2"];
const HLS_FMP4 = ["-f", "hls", "-hls_time", String(SEGMENT_SECONDS), "-hls_playlist_type", "vod", "-hls_segment_type", "fmp4"];

/** Outputs per step, removed before a step runs again. */
const STEP_OUTPUTS: Record<StepName, string[]> = {
  hls: ["hls"],
  progressive: ["progressive.mp4"],
  preview: ["preview.mp4", "preview"],
  "download-mp4": ["download.mp4"],
  "download-mp4-1080p": ["download-1080p.mp4"],
  "download-mp4-720p": ["download-720p.mp4"],
  "download-webm": ["download.webm"],
  storyboard: ["storyboard.jpg", "storyboard.vtt"],
};

const STEPS: Record<StepName, (context: StepContext) => Promise<void>> = {
  hls: encodeLadder,
  progressive: remuxProgressive,
  preview: cutPreview,
  "download-mp4": (context) => encodeDownloadMp4(context),
  "download-mp4-1080p": (context) => encodeDownloadMp4(context, 1080),
  "download-mp4-720p": (context) => encodeDownloadMp4(context, 720),
  "download-webm": encodeDownloadWebm,
  storyboard: makeStoryboard,
};

export function isStepDone(dir: string, step: StepName) {
  return fs.existsSync(path.join(dir, ".done", step));
}

/** Runs one step unless its marker says it finished before. */
export async function runStep(step: StepName, context: StepContext) {
  if (isStepDone(context.dir, step)) return "resumed" as const;
  for (const output of STEP_OUTPUTS[step]) await fs.promises.rm(path.join(context.dir, output), { recursive: true, force: true });
  await STEPS[step](context);
  await fs.promises.mkdir(path.join(context.dir, ".done"), { recursive: true });
  await fs.promises.writeFile(path.join(context.dir, ".done", step), "");
  return "ran" as const;
}

function progressOver(duration: number, onProgress: (fraction: number) => void) {
  return (seconds: number) => onProgress(Math.min(1, Math.max(0, seconds / duration)));
}

/** One decode of the master, split and scaled into every rung, each its own HLS variant. */
async function encodeLadder({ input, dir, probe, rungs, signal, onProgress }: StepContext) {
  await fs.promises.mkdir(path.join(dir, "hls"), { recursive: true });
  const labels = rungs.map((_, i) => `[v${i}]`).join("");
  const scaled = rungs.map((rung, i) => `[v${i}]scale=${rung.width}:${rung.height}:flags=bicubic,setsar=1[o${i}]`).join(";");
  const filter = `[0:v:0]split=${rungs.length}${labels};${scaled}`;
  const maps = rungs.flatMap((_, i) => ["-map", `[o${i}]`]);
  const audioMaps = probe.hasAudio ? rungs.flatMap(() => ["-map", "0:a:0"]) : [];
  const rates = rungs.flatMap((rung, i) => [
    `-b:v:${i}`,
    `${rung.videoKbps}k`,
    `-maxrate:v:${i}`,
    `${Math.round(rung.videoKbps * 1.1)}k`,
    `-bufsize:v:${i}`,
    `${rung.videoKbps * 2}k`,
  ]);
  const streamMap = rungs.map((rung, i) => `v:${i}${probe.hasAudio ? `,a:${i}` : ""},name:${rung.name}`).join(" ");
  await runFfmpeg(
    // prettier-ignore
    [
      "-i", input,
      "-filter_complex", filter,
      ...maps,
      ...audioMaps,
      ...H264,
      "-preset", "veryfast",
      ...rates,
      ...(probe.hasAudio ? AAC : []),
      ...HLS_FMP4,
      "-hls_segment_filename", path.join(dir, "hls", "%v", "seg-%05d.m4s"),
      "-master_pl_name", "master.m3u8",
      "-var_stream_map", streamMap,
      path.join(dir, "hls", "%v", "index.m3u8"),
    ],
    { signal, onProgress: progressOver(probe.duration, onProgress) },
  );
}

const rungPlaylist = (dir: string, rungs: readonly Rung[]) => path.join(dir, "hls", previewRung(rungs).name, "index.m3u8");

/** The preview rung as one file, stream-copied: no second encode, and it plays without JavaScript. */
async function remuxProgressive({ dir, rungs, probe, signal, onProgress }: StepContext) {
  await runFfmpeg(["-i", rungPlaylist(dir, rungs), "-c", "copy", "-movflags", "+faststart", path.join(dir, "progressive.mp4")], {
    signal,
    onProgress: progressOver(probe.duration, onProgress),
  });
}

/**
 * The first 10 s of the preview rung (never the master). Re-encoded so it ends at 10.000 s
 * exactly (a stream copy ends on a frame or audio packet past it), then segmented for HLS.
 */
async function cutPreview({ dir, rungs, probe, signal, onProgress }: StepContext) {
  const mp4 = path.join(dir, "preview.mp4");
  const seconds = previewSecondsOf(probe.duration);
  const rung = previewRung(rungs);
  await runFfmpeg(
    // prettier-ignore
    [
      "-i", rungPlaylist(dir, rungs),
      "-t", String(PREVIEW_SECONDS),
      ...H264,
      "-preset", "veryfast",
      "-b:v", `${rung.videoKbps}k`,
      "-maxrate", `${Math.round(rung.videoKbps * 1.1)}k`,
      "-bufsize", `${rung.videoKbps * 2}k`,
      ...(probe.hasAudio ? AAC : ["-an"]),
      "-movflags", "+faststart",
      mp4,
    ],
    { signal, onProgress: progressOver(seconds, (f) => onProgress(f * 0.9)) },
  );
  await fs.promises.mkdir(path.join(dir, "preview"), { recursive: true });
  await runFfmpeg(
    // prettier-ignore
    [
      "-i", mp4,
      "-c", "copy",
      ...HLS_FMP4,
      "-hls_fmp4_init_filename", "init.mp4",
      "-hls_segment_filename", path.join(dir, "preview", "seg-%05d.m4s"),
      path.join(dir, "preview", "index.m3u8"),
    ],
    { signal },
  );
  onProgress(1);
}

/**
 * What a licensee downloads: the master's own size (or, given `height`, scaled so its short side
 * is that many pixels), at a quality meant for editing, not streaming.
 */
async function encodeDownloadMp4({ input, dir, probe, signal, onProgress }: StepContext, height?: DownloadHeight) {
  const portrait = probe.height > probe.width;
  const scale = height ? ["-vf", portrait ? `scale=${height}:-2` : `scale=-2:${height}`] : [];
  await runFfmpeg(
    // No forced keyframes: an editor's file needs no segment boundaries, and they cost bytes.
    // prettier-ignore
    [
      "-i", input,
      "-map", "0:v:0",
      "-map", "0:a:0?",
      ...scale,
      "-c:v", "libx264",
      "-pix_fmt", "yuv420p",
      "-profile:v", "high",
      "-preset", "fast",
      "-crf", "18",
      ...AAC,
      "-movflags", "+faststart",
      path.join(dir, height ? `download-${height}p.mp4` : "download.mp4"),
    ],
    { signal, onProgress: progressOver(probe.duration, onProgress) },
  );
}

async function encodeDownloadWebm({ input, dir, probe, signal, onProgress }: StepContext) {
  await runFfmpeg(
    // prettier-ignore
    [
      "-i", input,
      "-map", "0:v:0",
      "-map", "0:a:0?",
      "-c:v", "libvpx-vp9",
      "-pix_fmt", "yuv420p",
      "-b:v", "0",
      "-crf", "31",
      // The realtime deadline is ~10× faster than "good" on two cores, at a modest cost in size.
      "-deadline", "realtime",
      "-cpu-used", "8",
      "-row-mt", "1",
      "-c:a", "libopus",
      "-b:a", `${AUDIO_KBPS}k`,
      path.join(dir, "download.webm"),
    ],
    { signal, onProgress: progressOver(probe.duration, onProgress) },
  );
}

/** A sprite of thumbnails, one every `interval` seconds, and the WebVTT cues that map times to tiles. */
async function makeStoryboard({ input, dir, probe, signal, onProgress }: StepContext) {
  const plan = storyboardPlan(probe.duration, probe);
  await runFfmpeg(
    // prettier-ignore
    [
      "-i", input,
      "-map", "0:v:0",
      "-vf", `fps=1/${plan.interval},scale=${plan.width}:${plan.height},tile=${plan.columns}x${plan.rows}`,
      "-frames:v", "1",
      "-q:v", "5",
      path.join(dir, "storyboard.jpg"),
    ],
    { signal, onProgress: progressOver(probe.duration, onProgress) },
  );
  await fs.promises.writeFile(path.join(dir, "storyboard.vtt"), storyboardVtt(plan, probe.duration));
}

export function storyboardVtt(plan: ReturnType<typeof storyboardPlan>, duration: number) {
  const cues: string[] = ["WEBVTT", ""];
  for (let i = 0; i < plan.count; i++) {
    const start = i * plan.interval;
    const end = Math.min(duration, start + plan.interval);
    const x = (i % plan.columns) * plan.width;
    const y = Math.floor(i / plan.columns) * plan.height;
    cues.push(`${vttTime(start)} --> ${vttTime(end)}`, `storyboard.jpg#xywh=${x},${y},${plan.width},${plan.height}`, "");
  }
  return cues.join("\n");
}

function vttTime(seconds: number) {
  const ms = Math.round(seconds * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  return `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}.${String(ms % 1000).padStart(3, "0")}`;
}

export type MeasuredRendition = {
  kind: "hls" | "progressive" | "preview" | "preview-hls" | "download" | "storyboard";
  file: string;
  width: number | null;
  height: number | null;
  bitrate: number | null;
  codec: string;
  bytes: number;
  duration: number | null;
  /** A download file's checksums, for its licence package; null for streaming files. */
  sha256: string | null;
  crc32: number | null;
};

/** What the finished steps produced, measured from the files themselves (sizes, ffprobe). */
export async function measureRenditions(dir: string, rungs: readonly Rung[], signal?: AbortSignal): Promise<MeasuredRendition[]> {
  const master = await fs.promises.readFile(path.join(dir, "hls", "master.m3u8"), "utf8");
  const codecs = masterCodecs(master);
  const rows: MeasuredRendition[] = [];
  for (const rung of rungs) {
    const folder = path.join(dir, "hls", rung.name);
    const playlist = await fs.promises.readFile(path.join(folder, "index.m3u8"), "utf8");
    const bytes = await folderBytes(folder);
    const duration = playlistDuration(playlist);
    rows.push({
      kind: "hls",
      file: `hls/${rung.name}/index.m3u8`,
      width: rung.width,
      height: rung.height,
      bitrate: duration > 0 ? Math.round((bytes * 8) / duration) : null,
      codec: codecs.get(`${rung.name}/index.m3u8`) ?? "avc1,mp4a.40.2",
      bytes,
      duration,
      sha256: null,
      crc32: null,
    });
  }
  const previewPlaylist = await fs.promises.readFile(path.join(dir, "preview", "index.m3u8"), "utf8");
  const previewHlsBytes = await folderBytes(path.join(dir, "preview"));
  const previewDuration = playlistDuration(previewPlaylist);
  const top = codecs.get(`${previewRung(rungs).name}/index.m3u8`) ?? "avc1,mp4a.40.2";
  const smallerMp4s = DOWNLOAD_HEIGHTS.map((height) => `download-${height}p.mp4`).filter((file) => fs.existsSync(path.join(dir, file)));
  const files: { kind: MeasuredRendition["kind"]; file: string; codec: string }[] = [
    { kind: "progressive", file: "progressive.mp4", codec: top },
    { kind: "preview", file: "preview.mp4", codec: top },
    ...["download.mp4", ...smallerMp4s].map((file) => ({ kind: "download" as const, file, codec: "h264,aac" })),
    { kind: "download", file: "download.webm", codec: "vp9,opus" },
  ];
  for (const { kind, file, codec } of files) {
    const full = path.join(dir, file);
    const [{ size }, duration, frame, sums] = await Promise.all([
      fs.promises.stat(full),
      measureDuration(full, signal),
      probeVideoSize(full, signal),
      kind === "download" ? checksums(fs.createReadStream(full)) : null,
    ]);
    rows.push({
      kind,
      file,
      width: frame.width,
      height: frame.height,
      bitrate: duration > 0 ? Math.round((size * 8) / duration) : null,
      codec,
      bytes: size,
      duration,
      sha256: sums?.sha256 ?? null,
      crc32: sums?.crc32 ?? null,
    });
  }
  const preview = previewRung(rungs);
  rows.push({
    kind: "preview-hls",
    file: "preview/index.m3u8",
    width: preview.width,
    height: preview.height,
    bitrate: previewDuration > 0 ? Math.round((previewHlsBytes * 8) / previewDuration) : null,
    codec: top,
    bytes: previewHlsBytes,
    duration: previewDuration,
    sha256: null,
    crc32: null,
  });
  const sprite = await fs.promises.stat(path.join(dir, "storyboard.jpg"));
  rows.push({
    kind: "storyboard",
    file: "storyboard.vtt",
    width: null,
    height: null,
    bitrate: null,
    codec: "jpeg",
    bytes: sprite.size,
    duration: null,
    sha256: null,
    crc32: null,
  });
  return rows;
}

/** CODECS of each variant in a master playlist, by its URI. */
export function masterCodecs(master: string) {
  const codecs = new Map<string, string>();
  const lines = master.split(/\r?\n/);
  lines.forEach((line, i) => {
    if (!line.startsWith("#EXT-X-STREAM-INF:")) return;
    const codec = /CODECS="([^"]+)"/.exec(line)?.[1];
    const uri = lines.slice(i + 1).find((next) => next.trim() && !next.startsWith("#"));
    if (codec && uri) codecs.set(uri.trim(), codec);
  });
  return codecs;
}

/** The sum of a media playlist's #EXTINF durations. */
export function playlistDuration(playlist: string) {
  let total = 0;
  for (const match of playlist.matchAll(/^#EXTINF:([\d.]+)/gm)) total += Number(match[1]);
  return Math.round(total * 1000) / 1000;
}

async function folderBytes(folder: string) {
  let total = 0;
  for (const name of await fs.promises.readdir(folder)) total += (await fs.promises.stat(path.join(folder, name))).size;
  return total;
}

/** SHA-256 (hex) and CRC-32 (signed, as stored) of a stream's bytes, in one pass. */
export async function checksums(source: AsyncIterable<Buffer | Uint8Array> | Iterable<Buffer | Uint8Array>) {
  const hash = crypto.createHash("sha256");
  let crc = 0;
  for await (const chunk of source) {
    hash.update(chunk);
    crc = zlib.crc32(chunk, crc);
  }
  return { sha256: hash.digest("hex"), crc32: crc | 0 };
}
