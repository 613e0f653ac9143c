// Regenerates the demo media in prisma/demo-media/ (`npm run media:demo`). For every animation
// of prisma/seed-data/animations.ts, keyed by its slug: a 640x360 cover (its specialty's
// palette, a soft abstract shape placed from the slug's own seed, its title, its subcategory
// and a "DEMO" badge), a slide-style full video exactly as long as its catalogue `duration`
// (title, section headings in turn, "Demo animation – Medanim", a running clock and a progress
// bar; 480x270, one animation at 1920x1080: demoVideoSize) and a 10-second preview cut from
// it. Also one thumbnail per main category and the doctor photos. Everything is drawn by
// ffmpeg (lavfi sources, geq and drawtext with DejaVu fonts), nothing is downloaded, reruns
// are byte-identical (fixed seeds, bitexact) and the whole set stays under 6 MB. The output
// is committed, so the seed works on machines without ffmpeg; the seed builds each
// animation's download package (a zip) from these files. This script is only needed to
// change the files.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chooseRungs, previewRung } from "../app/lib/media-ladder.ts";
import { ANIMATIONS, animationSlug } from "../prisma/seed-data/animations.ts";
import { CATEGORIES } from "../prisma/seed-data/categories.ts";
import {
  DEMO_LAYOUT_SIZE,
  DEMO_MEDIA_DIR,
  DOCTOR_PHOTO_COUNT,
  type FrameSize,
  MEDIA_LOOKS,
  PREVIEW_SECONDS,
  demoFile,
  demoVideoSize,
  formatDuration,
  type MediaLook,
  sectionHeadings,
} from "../prisma/seed-data/demo-media.ts";

const FFMPEG = process.env.FFMPEG_PATH ?? "ffmpeg";
const FONT_DIR = "/usr/share/fonts/truetype/dejavu";
const FONT = `${FONT_DIR}/DejaVuSans.ttf`;
const FONT_BOLD = `${FONT_DIR}/DejaVuSans-Bold.ttf`;
const MAX_TOTAL_BYTES = 6 * 1024 * 1024;

const FPS = 5;
const COVER = { width: 640, height: 360 };
/** Category thumbnails share the slide's 16:9 layout frame. */
const THUMBNAIL = DEMO_LAYOUT_SIZE;
const PHOTO_SIZE = 300;

// A slide changes once a second (clock, progress bar) and at each section heading, so a low
// frame rate, a 60-second GOP and a high CRF keep a five-minute video near 100 KB. moov first
// (faststart) so the player can start before the whole file has arrived; bitexact and one
// thread keep reruns byte-stable.
// prettier-ignore
const H264 = [
  "-c:v", "libx264",
  "-preset", "slow",
  "-crf", "34",
  "-g", String(FPS * 60),
  "-sc_threshold", "0",
  "-pix_fmt", "yuv420p",
  "-profile:v", "main",
  "-movflags", "+faststart",
  "-an",
  "-threads", "1",
  "-map_metadata",
  "-1",
  "-fflags", "+bitexact",
  "-flags:v", "+bitexact",
];
const JPEG = ["-frames:v", "1", "-q:v", "5", "-map_metadata", "-1", "-fflags", "+bitexact", "-flags:v", "+bitexact"];

type Rgb = [number, number, number];
const rgb = (hex: string): Rgb => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;

/** One calm palette per specialty: a deep gradient (dark → mid) and a light accent for shapes and labels. */
const PALETTES: Record<MediaLook, { dark: string; mid: string[]; accent: string }> = {
  "plastic-surgery": { dark: "#2a0f2e", mid: ["#7a2f5c", "#8a3b6a", "#6b2a5e"], accent: "#f8b5c6" },
  dermatology: { dark: "#2b140c", mid: ["#8a4a2c", "#9a5a34", "#7d4030"], accent: "#f3d2b3" },
  cardiology: { dark: "#2a0810", mid: ["#8c1c33", "#9e2a3a", "#7a1830"], accent: "#ff9aa8" },
  orthopedics: { dark: "#07172e", mid: ["#1f5288", "#245d94", "#1a4a7e"], accent: "#a8d4ff" },
  neurology: { dark: "#120c33", mid: ["#4a3596", "#553fa6", "#3f2f88"], accent: "#cdb8ff" },
};

/** A small deterministic PRNG (mulberry32) seeded from a string: the same slug draws the same cover. */
function random(seedText: string) {
  let seed = 2166136261;
  for (const char of seedText) seed = Math.imul(seed ^ char.charCodeAt(0), 16777619) >>> 0;
  return () => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The background: a linear gradient in the specialty's colours with a soft abstract shape in
 * its accent (two glows and a few thin rings), all placed by the seed. Designed at cover size;
 * drawn larger for a video larger than the cover, every length scaled alike, so the rings stay
 * as sharp as on the cover instead of being upscaled.
 */
function backgroundGraph(look: MediaLook, seedText: string, size: FrameSize = COVER) {
  const next = random(seedText);
  const between = (min: number, max: number) => min + (max - min) * next();
  const round = (n: number) => Math.round(n);
  const palette = PALETTES[look];
  const { width: W, height: H } = size;
  const k = W / COVER.width;
  const mid = palette.mid[Math.floor(next() * palette.mid.length)]!;
  // The gradient runs from a dark left edge (where the text sits) to the lighter right.
  const [x0, y0] = [0, round(between(0.3, 1) * H)];
  const [x1, y1] = [W, round(between(0, 0.7) * H)];
  const cx = round(between(0.6, 0.85) * W);
  const cy = round(between(0.15, 0.75) * H);
  const glow = round(between(90, 130) * k);
  const gx = round(between(0.55, 0.95) * W);
  const gy = cy > H / 2 ? round(between(0, 0.25) * H) : round(between(0.75, 1) * H);
  const rings = Array.from({ length: 1 + Math.floor(next() * 3) }, (_, i) => ({
    r: round(glow * (1.15 + 0.35 * i) + between(0, 20) * k),
    alpha: (0.34 - 0.08 * i).toFixed(2),
  }));
  const ringX = cx + round(between(-25, 25) * k);
  const ringY = cy + round(between(-20, 20) * k);
  const glow2 = 70 * k;
  const ringWidth = Number((2.6 * k * k).toFixed(3));
  const shape = [
    `0.42*exp(-(pow(X-${cx},2)+pow(Y-${cy},2))/${2 * glow * glow})`,
    `0.28*exp(-(pow(X-${gx},2)+pow(Y-${gy},2))/${2 * glow2 * glow2})`,
    ...rings.map(({ r, alpha }) => `${alpha}*exp(-pow(hypot(X-${ringX},Y-${ringY})-${r},2)/${ringWidth})`),
  ].join("+");
  const [ar, ag, ab] = rgb(palette.accent);
  const channel = (ch: "r" | "g" | "b", accent: number) => `${ch}(X,Y)+min(1,${shape})*(${accent}-${ch}(X,Y))`;
  return (
    `gradients=s=${W}x${H}:n=2:c0=${palette.dark}:c1=${mid}:x0=${x0}:y0=${y0}:x1=${x1}:y1=${y1}:speed=0.00001:seed=0,` +
    `format=rgb24,geq=r='${channel("r", ar)}':g='${channel("g", ag)}':b='${channel("b", ab)}'`
  );
}

// --- Text

/** Rough advance widths of DejaVu Sans Bold, in em: enough to wrap a title before drawing it. */
function textWidth(text: string, fontSize: number) {
  let em = 0;
  for (const char of text) {
    if (" ijlI.,:;'!|".includes(char)) em += 0.36;
    else if ("frt()-".includes(char)) em += 0.5;
    else if ("mwMW".includes(char)) em += 1.0;
    else if (/[A-Z]/.test(char)) em += 0.78;
    else em += 0.68;
  }
  return em * fontSize;
}

/** Greedy word wrap into at most `maxLines` lines at the largest size that fits. */
function wrapTitle(title: string, maxWidth: number, sizes: number[], maxLines = 3) {
  for (const size of sizes) {
    const lines: string[] = [];
    for (const word of title.split(/\s+/)) {
      const last = lines.at(-1);
      if (last !== undefined && textWidth(`${last} ${word}`, size) <= maxWidth) lines[lines.length - 1] = `${last} ${word}`;
      else lines.push(word);
    }
    if (lines.length <= maxLines && lines.every((line) => textWidth(line, size) <= maxWidth)) return { lines, size };
  }
  throw new Error(`"${title}" does not fit in ${maxLines} lines`);
}

// --- ffmpeg

function ffmpeg(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(FFMPEG, ["-y", "-hide_banner", "-loglevel", "error", ...args], { stdio: ["ignore", "inherit", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", (error) => reject(new Error(`Could not run ${FFMPEG}: ${error.message}. Install ffmpeg or set FFMPEG_PATH.`)));
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg ${args.join(" ")}\nexited with ${code}: ${stderr}`))));
  });
}

const out = (file: string) => path.join(DEMO_MEDIA_DIR, file);
const lavfi = (graph: string) => ["-f", "lavfi", "-i", graph];

/**
 * Text goes through files (textfile=): titles hold colons, apostrophes and commas that would
 * otherwise need filtergraph escaping. Only the clock keeps drawtext's %{…} expansion.
 */
function textWriter(dir: string, prefix: string) {
  let n = 0;
  return (text: string) => {
    const file = path.join(dir, `${prefix}-${++n}.txt`);
    fs.writeFileSync(file, text);
    return file;
  };
}

type Draw = { file: string; font?: string; size: number; color: string; x: string | number; y: string | number; extra?: string };
const drawtext = ({ file, font = FONT, size, color, x, y, extra }: Draw) =>
  `drawtext=fontfile=${font}:textfile=${file}:expansion=none:fontsize=${size}:fontcolor=${color}:x=${x}:y=${y}${extra ? `:${extra}` : ""}`;

type AnimationJob = {
  slug: string;
  title: string;
  duration: number;
  look: MediaLook;
  label: string;
  headings: string[];
};

async function makeAnimationMedia(job: AnimationJob, tmp: string) {
  const { slug, title, duration, look, label, headings } = job;
  const palette = PALETTES[look];
  const text = textWriter(tmp, slug);
  const background = path.join(tmp, `${slug}-background.png`);
  await ffmpeg([...lavfi(backgroundGraph(look, slug)), "-frames:v", "1", background]);

  // Cover: label, title (2–3 lines when long), DEMO badge, brand.
  const coverTitle = wrapTitle(title, COVER.width - 80, [34, 31, 28, 25]);
  const coverText = [
    drawtext({ file: text(label), size: 14, color: palette.accent, x: 40, y: 38 }),
    drawtext({ file: text("DEMO"), font: FONT_BOLD, size: 14, color: palette.dark, x: "w-tw-40", y: 36, extra: "box=1:boxcolor=white@0.9:boxborderw=7" }),
    drawtext({
      file: text(coverTitle.lines.join("\n")),
      font: FONT_BOLD,
      size: coverTitle.size,
      color: "white",
      x: 40,
      y: "h-th-90",
      extra: `line_spacing=${Math.round(coverTitle.size / 4)}`,
    }),
    drawtext({ file: text("Medanim  ·  demo cover"), size: 13, color: "white@0.75", x: 40, y: "h-th-36" }),
  ];
  await ffmpeg(["-i", background, "-vf", coverText.join(","), ...JPEG, out(demoFile.cover(slug))]);

  // Full video: the same background and title as a slide; section headings in turn, a clock
  // that counts whole seconds up to the catalogue duration and a progress bar under it. The
  // slide is laid out at 480×270; a larger video draws the same layout, every font size,
  // offset and the bar multiplied by one factor.
  const { width: W, height: H } = demoVideoSize(slug);
  const scale = W / DEMO_LAYOUT_SIZE.width;
  if (H !== DEMO_LAYOUT_SIZE.height * scale) throw new Error(`${slug}: ${W}x${H} is not the slide's 16:9 layout scaled`);
  const px = (layoutPixels: number) => layoutPixels * scale;
  // Wrapped in layout units, so a title breaks into the same lines at any size.
  const videoTitle = wrapTitle(title, DEMO_LAYOUT_SIZE.width - 40, [22, 20, 18]);
  const chapters = headings.length ? ["Overview", ...headings] : [];
  const chapterText = chapters.map((heading, i) => {
    const start = Math.round((duration * i) / chapters.length);
    const end = Math.round((duration * (i + 1)) / chapters.length);
    return drawtext({
      file: text(`${i + 1}/${chapters.length}   ${heading}`),
      size: px(15),
      color: "white@0.92",
      x: px(20),
      y: px(58 + videoTitle.lines.length * (videoTitle.size + 6) + 28),
      extra: `enable='gte(t,${start})*lt(t,${end})'`,
    });
  });
  const bar = W - px(40);
  const barHeight = px(3);
  const clock = text(`%{pts:gmtime:0:%M\\:%S} / ${formatDuration(duration).padStart(5, "0")}`);
  // A video wider than the cover gets a background drawn at its own size: the cover's, scaled
  // up, would blur the thin rings.
  const videoBackground = W > COVER.width ? path.join(tmp, `${slug}-background-${W}.png`) : background;
  if (videoBackground !== background) {
    await ffmpeg([...lavfi(backgroundGraph(look, slug, { width: W, height: H })), "-frames:v", "1", videoBackground]);
  }
  const graph = [
    `[0:v]scale=${W}:${H}:flags=bicubic,format=rgb24,` +
      [
        drawtext({ file: text(label), size: px(11), color: palette.accent, x: px(20), y: px(22) }),
        drawtext({
          file: text(videoTitle.lines.join("\n")),
          font: FONT_BOLD,
          size: px(videoTitle.size),
          color: "white",
          x: px(20),
          y: px(48),
          extra: `line_spacing=${px(6)}`,
        }),
        ...chapterText,
        drawtext({ file: text("Demo animation – Medanim"), size: px(11), color: "white@0.85", x: px(20), y: `h-${px(40)}` }),
        drawtext({ file: clock, size: px(11), color: "white@0.85", x: `w-tw-${px(20)}`, y: `h-${px(40)}` }).replace(":expansion=none", ""),
      ].join(",") +
      "[slide]",
    // The bar: filled and empty halves side by side, a bar-wide window sliding over them once a second.
    `color=c=${palette.accent}:s=${bar}x${barHeight}:r=${FPS},format=rgba[done]`,
    `color=c=white@0.3:s=${bar}x${barHeight}:r=${FPS},format=rgba[todo]`,
    `[done][todo]hstack,crop=w=${bar}:h=${barHeight}:x='${bar}-${bar}*floor(t)/${duration}':y=0[bar]`,
    `[slide][bar]overlay=x=${px(20)}:y=H-${px(20)}:shortest=1,format=yuv420p[video]`,
  ].join(";");
  await ffmpeg([
    "-loop",
    "1",
    "-framerate",
    String(FPS),
    "-i",
    videoBackground,
    "-filter_complex",
    graph,
    "-map",
    "[video]",
    "-t",
    String(duration),
    ...H264,
    out(demoFile.fullVideo(slug)),
  ]);
  // Re-encoded rather than stream-copied: a copy cut lands on packet boundaries and can run
  // past 10 s; this gives exactly the first 10 seconds. A video above 720p has its preview
  // scaled to the rung the pipeline cuts previews from (720p): this file is what cards play on
  // hover and what plays until the pipeline's own preview exists, and a preview is never made
  // at a master's full size (decision 017).
  const preview = previewRung(chooseRungs({ width: W, height: H }));
  const shrink = preview.width === W ? [] : ["-vf", `scale=${preview.width}:${preview.height}:flags=bicubic`];
  await ffmpeg(["-i", out(demoFile.fullVideo(slug)), "-t", String(PREVIEW_SECONDS), ...shrink, ...H264, out(demoFile.preview(slug))]);
}

/** A category thumbnail: the specialty's background without text (the site writes the name). */
async function makeThumbnail(look: MediaLook) {
  await ffmpeg([
    ...lavfi(backgroundGraph(look, `thumbnail-${look}`)),
    "-vf",
    `scale=${THUMBNAIL.width}:${THUMBNAIL.height}:flags=bicubic`,
    ...JPEG,
    out(demoFile.thumbnail(look)),
  ]);
}

/** Abstract portrait: a soft gradient with a light head-and-shoulders silhouette. */
async function makeDoctorPhoto(n: number) {
  const palettes = ["#1d3557:#457b9d", "#2a9d8f:#264653", "#6d597a:#b56576", "#3a5a40:#588157", "#7f5539:#b08968", "#22577a:#38a3a5"];
  const [c0, c1] = palettes[(n - 1) % palettes.length]!.split(":");
  const c = PHOTO_SIZE / 2;
  const inside = `gt(lte(hypot(X-${c},Y-${c * 0.82}),${c * 0.38})+lte(pow((X-${c})/${c * 0.72},2)+pow((Y-${PHOTO_SIZE})/${c * 0.8},2),1),0)`;
  const channel = (v: number, ch: "r" | "g" | "b") => `if(${inside},0.2*${ch}(X,Y)+0.8*${v},${ch}(X,Y))`;
  await ffmpeg([
    ...lavfi(`gradients=s=${PHOTO_SIZE}x${PHOTO_SIZE}:c0=${c0}:c1=${c1}:type=radial:seed=${40 + n}`),
    "-vf",
    `format=rgb24,geq=r='${channel(236, "r")}':g='${channel(240, "g")}':b='${channel(244, "b")}'`,
    ...JPEG,
    out(demoFile.doctorPhoto(n)),
  ]);
}

function animationJobs(): AnimationJob[] {
  const subcategories = new Map(
    CATEGORIES.flatMap((main) => main.subcategories.map((sub) => [sub.slug, { look: main.slug, sub: sub.name, main: main.name }] as const)),
  );
  return ANIMATIONS.map((animation) => {
    const category = subcategories.get(animation.category);
    if (!category) throw new Error(`"${animation.title}" names an unknown category ${animation.category}`);
    return {
      slug: animationSlug(animation.title),
      title: animation.title,
      duration: animation.duration,
      look: category.look,
      label: `${category.sub}  ·  ${category.main}`.toUpperCase(),
      headings: sectionHeadings(animation.description),
    };
  });
}

async function main() {
  const started = Date.now();
  for (const font of [FONT, FONT_BOLD]) {
    if (!fs.existsSync(font)) throw new Error(`${font} is missing: install fonts-dejavu-core.`);
  }
  const animations = animationJobs();
  const slugs = new Set(animations.map((a) => a.slug));
  if (slugs.size !== animations.length) throw new Error("Two animations share a slug.");

  fs.rmSync(DEMO_MEDIA_DIR, { recursive: true, force: true });
  fs.mkdirSync(DEMO_MEDIA_DIR, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-demo-media-"));
  try {
    const jobs: (() => Promise<void>)[] = [
      // Longest first, so the two workers finish together.
      ...[...animations].sort((a, b) => b.duration - a.duration).map((animation) => () => makeAnimationMedia(animation, tmp)),
      ...MEDIA_LOOKS.map((look) => () => makeThumbnail(look)),
      ...Array.from({ length: DOCTOR_PHOTO_COUNT }, (_, i) => () => makeDoctorPhoto(i + 1)),
    ];
    // Two at a time: the machines have two cores.
    const queue = [...jobs];
    await Promise.all(
      [0, 1].map(async () => {
        for (let job = queue.shift(); job; job = queue.shift()) await job();
      }),
    );
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }

  const files = fs.readdirSync(DEMO_MEDIA_DIR).sort();
  const size = (file: string) => fs.statSync(out(file)).size;
  const total = files.reduce((sum, file) => sum + size(file), 0);
  for (const file of files) console.log(`${(size(file) / 1024).toFixed(0).padStart(6)} KB  ${file}`);
  const kinds = ["cover-", "video-", "preview-", "thumbnail-", "doctor-"].map((prefix) => {
    const group = files.filter((file) => file.startsWith(prefix));
    return `${prefix.slice(0, -1)}: ${group.length} files, ${(group.reduce((sum, file) => sum + size(file), 0) / 1024).toFixed(0)} KB`;
  });
  console.log(kinds.join("; "));
  console.log(`${files.length} files, ${(total / 1024 / 1024).toFixed(2)} MB in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (total > MAX_TOTAL_BYTES) throw new Error("The demo media exceed 6 MB: raise the CRF or lengthen the GOP.");
}

if (process.argv[1]?.endsWith("make-demo-media.ts")) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
