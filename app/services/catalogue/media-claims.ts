import { formatFileTypes, formatResolution } from "~/lib/format.ts";

/** One animation's own files as pages state them ("480p", "MP4 1080p, 720p and WebM 1080p"); null where nothing was recorded. */
export type MediaClaims = { resolution: string | null; formats: string | null };

/** A download file of the current media set, as measured: "download-720p.mp4", 1280, 720. */
export type DownloadFileFacts = { file: string; width: number | null; height: number | null };

export function mediaClaimsOf(animation: {
  videoWidth: number | null;
  videoHeight: number | null;
  downloadFormats: string[];
  mediaSet?: { renditions: DownloadFileFacts[] } | null;
}): MediaClaims {
  const files = animation.mediaSet?.renditions ?? [];
  return {
    resolution: animation.videoWidth && animation.videoHeight ? formatResolution(animation.videoWidth, animation.videoHeight) : null,
    formats: files.length ? describeDownloads(files) : animation.downloadFormats.length ? formatFileTypes(animation.downloadFormats) : null,
  };
}

/** The licence package's videos by format, each with the resolutions it has files at: "MP4 4K (2160p), 1080p and WebM 4K (2160p)". */
export function describeDownloads(files: readonly DownloadFileFacts[]) {
  const byFormat = new Map<string, number[]>();
  for (const { file, width, height } of files) {
    const format = file.endsWith(".webm") ? "WebM" : "MP4";
    const lines = width && height ? Math.min(width, height) : null;
    byFormat.set(format, [...(byFormat.get(format) ?? []), ...(lines ? [lines] : [])]);
  }
  return [...byFormat]
    .sort(([a], [b]) => (a === "MP4" ? -1 : b === "MP4" ? 1 : 0))
    .map(([format, lines]) => [format, ...[...new Set(lines)].sort((a, b) => b - a).map((p) => (p >= 2160 ? `4K (${p}p)` : `${p}p`)).join(", ")].filter(Boolean).join(" "))
    .join(" and ");
}
