import { fileURLToPath } from "node:url";

// The demo media shipped in the repository (prisma/demo-media/), shared by the generator
// (scripts/make-demo-media.ts) and the seed so both agree on every file name. The files are
// committed: the seed must work on a machine without ffmpeg.

export const DEMO_MEDIA_DIR = fileURLToPath(new URL("../demo-media/", import.meta.url));

/** Each main category has its own look: one full video, its preview, a thumbnail and two covers. */
export const MEDIA_LOOKS = ["plastic-surgery", "dermatology", "cardiology", "orthopedics", "neurology"] as const;
export type MediaLook = (typeof MEDIA_LOOKS)[number];

export const COVERS_PER_LOOK = 2;
export const DOCTOR_PHOTO_COUNT = 6;

export const demoFile = {
  fullVideo: (look: MediaLook) => `video-${look}.mp4`,
  // Spec: "Preview cap 10 seconds": the first 10 s of the full video.
  preview: (look: MediaLook) => `preview-${look}.mp4`,
  thumbnail: (look: MediaLook) => `thumbnail-${look}.jpg`,
  cover: (look: MediaLook, n: number) => `cover-${look}-${((n - 1) % COVERS_PER_LOOK) + 1}.jpg`,
  doctorPhoto: (n: number) => `doctor-${String(((n - 1) % DOCTOR_PHOTO_COUNT) + 1).padStart(2, "0")}.jpg`,
  download: "animation-package.zip",
};

export function contentTypeOf(file: string) {
  if (file.endsWith(".mp4")) return "video/mp4";
  if (file.endsWith(".jpg")) return "image/jpeg";
  if (file.endsWith(".zip")) return "application/zip";
  throw new Error(`Unknown demo media type: ${file}`);
}
