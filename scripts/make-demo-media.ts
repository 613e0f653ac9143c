// Regenerates the demo media in prisma/demo-media/ (`npm run media:demo`): full videos, their
// 10-second previews, covers, category thumbnails, doctor photos and a small download package.
// Everything is drawn by ffmpeg's built-in (lavfi) sources, nothing is downloaded, and the whole
// set stays under 5 MB. The output is committed, so the seed works on machines without ffmpeg;
// this script is only needed to change the files.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import {
  COVERS_PER_LOOK,
  DEMO_MEDIA_DIR,
  DOCTOR_PHOTO_COUNT,
  MEDIA_LOOKS,
  demoFile,
  type MediaLook,
} from "../prisma/seed-data/demo-media.ts";

const FFMPEG = process.env.FFMPEG_PATH ?? "ffmpeg";
const FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
const MAX_TOTAL_BYTES = 5 * 1024 * 1024;

const VIDEO = { width: 480, height: 270, fps: 15, seconds: 24 };
// Spec: "Preview cap 10 seconds".
const PREVIEW_SECONDS = 10;
const COVER = { width: 640, height: 360 };
const PHOTO_SIZE = 300;

// Small, browser-friendly H.264: fixed 2-second GOP, capped bitrate, moov atom first so the
// player can start before the whole file has arrived. bitexact keeps reruns byte-stable.
const H264 = [
  "-c:v", "libx264", "-preset", "slow", "-crf", "28", "-maxrate", "130k", "-bufsize", "260k",
  "-g", String(VIDEO.fps * 2), "-keyint_min", String(VIDEO.fps * 2), "-sc_threshold", "0",
  "-pix_fmt", "yuv420p", "-profile:v", "main", "-movflags", "+faststart", "-an",
  "-threads", "1", "-map_metadata", "-1", "-fflags", "+bitexact", "-flags:v", "+bitexact",
];
const JPEG = ["-frames:v", "1", "-q:v", "5", "-map_metadata", "-1", "-fflags", "+bitexact", "-flags:v", "+bitexact"];

type Size = { width: number; height: number };
const dims = ({ width, height }: Size) => `${width}x${height}`;
const half = ({ width, height }: Size) => `${width / 2}x${height / 2}`;
const upscale = ({ width, height }: Size) => `scale=${width}:${height}:flags=neighbor`;

/**
 * One lavfi graph per main category and variant (0 drives the video and thumbnail, 1.. the
 * covers), so each specialty has a recognisable look. Seeds are fixed: reruns draw the same.
 */
const LOOKS: Record<MediaLook, { label: string; graph: (size: Size, variant: number) => string }> = {
  "plastic-surgery": {
    label: "Plastic Surgery",
    graph: (size, v) => {
      const palettes = [
        "c0=#f7c6c7:c1=#c77dff:c2=#ffd6a5:c3=#7fd8e6",
        "c0=#ffafcc:c1=#bde0fe:c2=#ffc8dd:c3=#a2d2ff",
        "c0=#fde2e4:c1=#e2ece9:c2=#cddafd:c3=#f8b4a6",
      ];
      const type = ["spiral", "radial", "circular"][v % 3];
      return `gradients=s=${dims(size)}:r=${VIDEO.fps}:n=4:${palettes[v % 3]}:type=${type}:speed=0.012:seed=${11 + v}`;
    },
  },
  dermatology: {
    label: "Dermatology",
    graph: (size, v) =>
      `gradients=s=${dims(size)}:r=${VIDEO.fps}:n=3:c0=#7a4a2a:c1=#e0a96d:c2=#f3d5b5:speed=0.01:seed=${21 + v}[bg];` +
      `cellauto=s=${half(size)}:r=${VIDEO.fps}:rule=${[90, 30, 150][v % 3]}:seed=${7 + v}:ratio=0.3,${upscale(size)},` +
      `format=rgb24,lutrgb=r=val*0.5:g=val*0.35:b=val*0.25[fg];[bg]format=rgb24[bgr];[bgr][fg]blend=all_mode=screen[out0]`,
  },
  cardiology: {
    label: "Cardiology",
    graph: (size, v) => {
      const spots = [
        "start_x=-0.743643887037151:start_y=0.13182590420533:start_scale=3:end_scale=0.4",
        "start_x=-0.7453:start_y=0.1127:start_scale=0.02:end_scale=0.01",
        "start_x=-0.16:start_y=1.0405:start_scale=0.05:end_scale=0.03",
      ];
      return `mandelbrot=s=${dims(size)}:r=${VIDEO.fps}:maxiter=256:${spots[v % 3]}:end_pts=${VIDEO.fps * VIDEO.seconds},hue=h=${[150, 170, 130][v % 3]}:s=1.3`;
    },
  },
  orthopedics: {
    label: "Orthopedics",
    graph: (size, v) =>
      `gradients=s=${dims(size)}:r=${VIDEO.fps}:n=2:c0=#0b2545:c1=#13315c:speed=0.01:seed=${31 + v}[bg];` +
      `sierpinski=s=${dims(size)}:r=${VIDEO.fps}:type=${v % 2 ? "triangle" : "carpet"}:jump=${[60, 40, 90][v % 3]}:seed=${3 + v},` +
      `format=rgb24,lutrgb=r=val*0.55:g=val*0.8:b=val[fg];[bg]format=rgb24[bgr];[bgr][fg]blend=all_mode=screen[out0]`,
  },
  neurology: {
    label: "Neurology",
    graph: (size, v) => {
      const colors = [
        "life_color=#c3a6ff:death_color=#140c2e:mold_color=#2ec4b6",
        "life_color=#80ffdb:death_color=#0b132b:mold_color=#5390d9",
        "life_color=#ffd166:death_color=#1b0f2e:mold_color=#7b2cbf",
      ];
      return `life=s=${half(size)}:r=${VIDEO.fps}:mold=8:ratio=0.12:seed=${5 + v}:${colors[v % 3]},${upscale(size)}`;
    },
  },
};

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

function overlayText(label: string) {
  if (!fs.existsSync(FONT)) return "null";
  // The running clock makes it obvious that a preview stops at 00:00:10.
  const box = "fontcolor=white:box=1:boxcolor=black@0.45";
  return [
    `drawtext=fontfile=${FONT}:text='Medanim demo - ${label}':x=16:y=14:fontsize=16:${box}:boxborderw=6`,
    `drawtext=fontfile=${FONT}:text='%{pts\\:hms}':x=w-tw-16:y=h-th-14:fontsize=14:${box}:boxborderw=5`,
  ].join(",");
}

async function makeVideos(look: MediaLook) {
  const { label, graph } = LOOKS[look];
  await ffmpeg([...lavfi(graph(VIDEO, 0)), "-t", String(VIDEO.seconds), "-vf", overlayText(label), ...H264, out(demoFile.fullVideo(look))]);
  // Re-encoded rather than stream-copied: a copy cut lands on packet boundaries and runs a few
  // frames past 10 s; this gives exactly the first 150 frames.
  await ffmpeg(["-i", out(demoFile.fullVideo(look)), "-t", String(PREVIEW_SECONDS), ...H264, out(demoFile.preview(look))]);
}

async function makeStills(look: MediaLook) {
  const { graph } = LOOKS[look];
  // The same picture as the video, without the caption, a few seconds in.
  await ffmpeg(["-ss", "6", ...lavfi(graph(VIDEO, 0)), ...JPEG, out(demoFile.thumbnail(look))]);
  for (let n = 1; n <= COVERS_PER_LOOK; n++) {
    await ffmpeg(["-ss", String(2 + 3 * n), ...lavfi(graph(COVER, n)), "-vf", "vignette=PI/5", ...JPEG, out(demoFile.cover(look, n))]);
  }
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
    "-vf", `format=rgb24,geq=r='${channel(236, "r")}':g='${channel(240, "g")}':b='${channel(244, "b")}'`,
    ...JPEG, out(demoFile.doctorPhoto(n)),
  ]);
}

// --- A minimal ZIP writer (method 0, "stored"): Node 20 has no zlib.crc32, so CRC-32 is here too.

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

export function crc32(data: Buffer) {
  let crc = 0xffffffff;
  for (const byte of data) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export function zipStored(files: { name: string; content: string }[]) {
  // A fixed timestamp (2025-01-01 00:00) keeps the archive byte-identical across runs.
  const dosTime = 0;
  const dosDate = ((2025 - 1980) << 9) | (1 << 5) | 1;
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const file of files) {
    const name = Buffer.from(file.name, "utf8");
    const data = Buffer.from(file.content, "utf8");
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0); // local file header signature
    local.writeUInt16LE(20, 4); // version needed to extract (2.0)
    local.writeUInt16LE(0x0800, 6); // flags: names are UTF-8
    local.writeUInt16LE(0, 8); // method: stored
    local.writeUInt16LE(dosTime, 10);
    local.writeUInt16LE(dosDate, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18); // compressed size
    local.writeUInt32LE(data.length, 22); // uncompressed size
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28); // extra field length
    locals.push(local, name, data);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0); // central directory header signature
    central.writeUInt16LE(0x0314, 4); // made by: Unix, spec 2.0
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(0, 10);
    central.writeUInt16LE(dosTime, 12);
    central.writeUInt16LE(dosDate, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    // extra length, comment length, disk number, internal attributes: all 0
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38); // external attributes: a regular rw-r--r-- file
    central.writeUInt32LE(offset, 42); // offset of the local header
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0); // end of central directory signature
  end.writeUInt16LE(files.length, 8); // entries on this disk
  end.writeUInt16LE(files.length, 10); // entries in total
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16); // where the central directory starts
  return Buffer.concat([...locals, directory, end]);
}

const README = `Medanim demo animation package
==============================

This archive stands in for the download that comes with an individual or category
licence: in a real catalogue it holds the full-resolution MP4 and WebM renders of the
animation, still frames for print and a transcript of the narration.

The demo library is generated by scripts/make-demo-media.ts, so this package only holds
this README and the licence terms (license.txt).
`;

const LICENSE = `Medanim animation licence (demo)
================================

The licensed animation may be used for patient education, on the licensee's website and
social media channels, in presentations and in the waiting room, for as long as the
licence is active. Downloaded files may be kept after the licence ends.

The animation may not be resold, sublicensed, altered to change its medical meaning, or
redistributed as a stock asset. All medical animations are owned by Medanim and protected
by copyright.

This file belongs to demo data and grants no rights.
`;

async function main() {
  const started = Date.now();
  fs.rmSync(DEMO_MEDIA_DIR, { recursive: true, force: true });
  fs.mkdirSync(DEMO_MEDIA_DIR, { recursive: true });

  const jobs: (() => Promise<void>)[] = [
    ...MEDIA_LOOKS.map((look) => () => makeVideos(look)),
    ...MEDIA_LOOKS.map((look) => () => makeStills(look)),
    ...Array.from({ length: DOCTOR_PHOTO_COUNT }, (_, i) => () => makeDoctorPhoto(i + 1)),
  ];
  // Two at a time: the machines have two cores.
  const queue = [...jobs];
  await Promise.all(
    [0, 1].map(async () => {
      for (let job = queue.shift(); job; job = queue.shift()) await job();
    }),
  );
  fs.writeFileSync(
    out(demoFile.download),
    zipStored([
      { name: "README.txt", content: README },
      { name: "license.txt", content: LICENSE },
    ]),
  );

  const files = fs.readdirSync(DEMO_MEDIA_DIR).sort();
  const total = files.reduce((sum, file) => sum + fs.statSync(out(file)).size, 0);
  for (const file of files) console.log(`${(fs.statSync(out(file)).size / 1024).toFixed(0).padStart(6)} KB  ${file}`);
  console.log(`${files.length} files, ${(total / 1024 / 1024).toFixed(2)} MB in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (total > MAX_TOTAL_BYTES) throw new Error("The demo media exceed 5 MB: lower the bitrate or the duration.");
}

if (process.argv[1]?.endsWith("make-demo-media.ts")) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
