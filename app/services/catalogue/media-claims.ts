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
    formats: files.length
      ? withExtras(describeDownloads(files), files, animation.downloadFormats)
      : animation.downloadFormats.length
        ? formatFileTypes(animation.downloadFormats)
        : null,
  };
}

/** The videos' claim, then any other video type the admin's extras hold ("… and WebM"). */
function withExtras(claim: string, files: readonly DownloadFileFacts[], extraFormats: string[]) {
  const named = new Set(files.map(({ file }) => /\.([a-z0-9]+)$/i.exec(file)?.[1]?.toUpperCase()));
  const more = extraFormats.filter((format) => !named.has(format));
  return more.length ? `${claim} and ${formatFileTypes(more)}` : claim;
}

/** The licence package's videos by format, each with the resolutions it has files at: "MP4 4K (2160p), 1080p and WebM 4K (2160p)". */
export function describeDownloads(files: readonly DownloadFileFacts[]) {
  const byFormat = new Map<string, number[]>();
  for (const { file, width, height } of files) {
    const ext = /\.([a-z0-9]+)$/i.exec(file)?.[1]?.toUpperCase() ?? "MP4";
    const format = ext === "WEBM" ? "WebM" : ext;
    const lines = width && height ? Math.min(width, height) : null;
    byFormat.set(format, [...(byFormat.get(format) ?? []), ...(lines ? [lines] : [])]);
  }
  return [...byFormat]
    .sort(([a], [b]) => (a === "MP4" ? -1 : b === "MP4" ? 1 : 0))
    .map(([format, lines]) => {
      const resolutions = [...new Set(lines)].sort((a, b) => b - a).map((p) => (p >= 2160 ? `4K (${p}p)` : `${p}p`));
      return resolutions.length ? `${format} ${resolutions.join(", ")}` : format;
    })
    .join(" and ");
}
