import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { zipStored } from "./zip.ts";

// The demo media shipped in the repository (prisma/demo-media/), shared by the generator
// (scripts/make-demo-media.ts) and the seed so both agree on every file name. The files are
// committed: the seed must work on a machine without ffmpeg. Every animation has its own cover,
// full video (as long as its catalogue duration) and 10-second preview, keyed by its slug
// (animationSlug(title)); its download package is built by the seed from those files.

export const DEMO_MEDIA_DIR = fileURLToPath(new URL("../demo-media/", import.meta.url));

/** The main categories: each has its own palette and one category thumbnail. */
export const MEDIA_LOOKS = ["plastic-surgery", "dermatology", "cardiology", "orthopedics", "neurology"] as const;
export type MediaLook = (typeof MEDIA_LOOKS)[number];

export const DOCTOR_PHOTO_COUNT = 6;

export type FrameSize = { readonly width: number; readonly height: number };

/** The frame the demo slide is laid out at, and the size of every demo video but one. */
export const DEMO_LAYOUT_SIZE: FrameSize = { width: 480, height: 270 };

/**
 * The one demo animation with a 1080p master, so a fresh start shows the pipeline's
 * whole ladder and the player's quality menu. One nobody's test names, and short: every start
 * on a fresh database transcodes it.
 */
export const DEMO_1080P_SLUG = "how_acne_forms_inside_the_pore";

/** An animation's demo video frame: the generator draws at it, the seed records it (no ffmpeg needed to seed). */
export function demoVideoSize(slug: string): FrameSize {
  return slug === DEMO_1080P_SLUG ? { width: 1920, height: 1080 } : DEMO_LAYOUT_SIZE;
}

/** Preview capped at 10 seconds: the preview is the first 10 s of the full video (app/lib/preview.ts). */
export { PREVIEW_SECONDS } from "../../app/lib/preview.ts";

export const demoFile = {
  fullVideo: (slug: string) => `video-${slug}.mp4`,
  preview: (slug: string) => `preview-${slug}.mp4`,
  cover: (slug: string) => `cover-${slug}.jpg`,
  thumbnail: (look: MediaLook) => `thumbnail-${look}.jpg`,
  doctorPhoto: (n: number) => `doctor-${String(((n - 1) % DOCTOR_PHOTO_COUNT) + 1).padStart(2, "0")}.jpg`,
};

/** Entry names inside an animation's download package (served as `<slug>.zip`). */
/** The demo's extras inside each licence package (extras/<slug>-extras.zip): a still for print and a note. */
export const demoPackageEntry = {
  still: (slug: string) => `stills/${slug}-cover.jpg`,
  readme: "README-extras.txt",
};

export function contentTypeOf(file: string) {
  if (file.endsWith(".mp4")) return "video/mp4";
  if (file.endsWith(".vtt")) return "text/vtt";
  if (file.endsWith(".jpg")) return "image/jpeg";
  if (file.endsWith(".zip")) return "application/zip";
  throw new Error(`Unknown demo media type: ${file}`);
}

/** "3:34" */
export function formatDuration(seconds: number) {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

export type DemoPackageAnimation = { slug: string; title: string; duration: number; doctors: string[] };

function extrasReadme({ slug, title, duration, doctors }: DemoPackageAnimation) {
  const heading = `${title} - Medanim demo extras`;
  return `${heading}
${"=".repeat(heading.length)}

Animation:   ${title}
Reviewed by: ${doctors.join(", ") || "-"}
Duration:    ${formatDuration(duration)} (${duration} seconds)

This is DEMO media: the catalogue is filled with generated sample content and no medical
animation is included. These extras are what a publisher adds to a licence package beside the
files the pipeline makes from the master (the videos, captions, transcript and licence terms
listed in the package's own README.txt):

  ${demoPackageEntry.still(slug)}  the cover (a generated image), as a still for print
  ${demoPackageEntry.readme}  this file
`;
}

/**
 * An animation's extras for its licence package (the admin's optional "download file"), built in
 * memory from its committed demo files: its cover as a print still and a README naming the
 * animation, its doctors and duration. No video and no terms: the package itself carries those,
 * made from the master. Stored entries and a fixed timestamp: the same bytes every run.
 */
export function demoPackage(animation: DemoPackageAnimation) {
  const read = (file: string) => fs.readFileSync(path.join(DEMO_MEDIA_DIR, file));
  return zipStored([
    { name: demoPackageEntry.still(animation.slug), content: read(demoFile.cover(animation.slug)) },
    { name: demoPackageEntry.readme, content: extrasReadme(animation) },
  ]);
}

/** Headings as the detail page recognises them: a short capitalised line of letters only. */
export function sectionHeadings(description: string) {
  return description
    .split("\n\n")
    .map((block) => block.split("\n"))
    .filter((lines) => lines.length > 1 && /^[A-Z][A-Za-z ]{0,49}$/.test(lines[0]!))
    .map((lines) => lines[0]!);
}

/**
 * The demo video's chapters, as the generator draws them: "Overview" and then each section
 * heading, the duration shared evenly (whole seconds). Each carries its section's text.
 */
export function demoChapters(description: string, duration: number) {
  const headings = new Set(sectionHeadings(description));
  const sections: Array<{ heading: string; text: string[] }> = [{ heading: "Overview", text: [] }];
  for (const block of description.split("\n\n")) {
    const [first, ...rest] = block.split("\n");
    if (rest.length && headings.has(first!)) sections.push({ heading: first!, text: rest });
    else sections.at(-1)!.text.push(block);
  }
  return sections.map((section, i) => ({
    ...section,
    start: Math.round((duration * i) / sections.length),
    end: Math.round((duration * (i + 1)) / sections.length),
  }));
}

const vttTime = (seconds: number) =>
  `${String(Math.floor(seconds / 3600)).padStart(2, "0")}:${String(Math.floor(seconds / 60) % 60).padStart(2, "0")}:${(seconds % 60).toFixed(3).padStart(6, "0")}`;

/**
 * English demo captions for an animation: per chapter, its heading and then its sentences,
 * spread over the chapter's time. Text only, so the seed makes them on any machine; the player
 * shows them and the detail page offers them as the transcript.
 */
export function demoCaptions(description: string, duration: number) {
  const cues: string[] = [];
  for (const chapter of demoChapters(description, duration)) {
    const sentences = chapter.text
      .join(" ")
      .split(/(?<=[.!?])\s+/)
      .filter(Boolean);
    const lines = [chapter.heading, ...sentences];
    const span = (chapter.end - chapter.start) / lines.length;
    lines.forEach((line, i) => {
      const start = chapter.start + span * i;
      cues.push(`${vttTime(start)} --> ${vttTime(start + span)}\n${i === 0 ? `[${line}]` : line}`);
    });
  }
  return `WEBVTT\n\nNOTE Demo captions, generated from the animation's description.\n\n${cues.join("\n\n")}\n`;
}

/**
 * Spanish demo captions (issue 46: the players of the embed and of patient links choose the
 * caption language by the viewer's), for the demo member's licensed animation: its English cues'
 * texts, translated one for one, so each keeps its English cue's times.
 */
export const DEMO_SPANISH_CAPTIONS: Readonly<Record<string, readonly string[]>> = {
  open_rhinoplasty_reshaping_the_nasal_framework: [
    "[Introducción]",
    "La rinoplastia abierta ofrece al cirujano una vista directa del cartílago y el hueso que dan forma a la nariz.",
    "Esta animación sigue la operación desde la pequeña incisión a través de la columela hasta la férula final.",
    "[Cómo se realiza el procedimiento]",
    "La piel se levanta del armazón nasal, se reduce la giba con una escofina o un osteótomo, y los cartílagos de la punta se recortan y se suturan para darles una nueva forma.",
    "Los injertos de cartílago, a menudo obtenidos del tabique, refuerzan las zonas que necesitan resistencia.",
    "[Recuperación y resultados]",
    "La mayor parte de la hinchazón remite en dos o tres semanas, pero el refinamiento final de la punta puede tardar un año.",
    "La animación muestra por qué: la piel se vuelve a adaptar lentamente sobre el nuevo armazón.",
  ],
};

/** `vtt` (demoCaptions's) with each cue's text replaced, in order, by `lines`: the same cues, the same times. */
export function translatedCaptions(vtt: string, lines: readonly string[]) {
  const [header, , ...cues] = vtt.trimEnd().split("\n\n");
  if (cues.length !== lines.length) throw new Error(`${lines.length} translated lines for ${cues.length} cues`);
  const translated = cues.map((cue, i) => `${cue.split("\n")[0]}\n${lines[i]}`);
  return `${header}\n\nNOTE Demo captions, translated cue by cue from the English ones.\n\n${translated.join("\n\n")}\n`;
}
