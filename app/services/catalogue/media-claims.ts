import { formatFileTypes, formatResolution } from "~/lib/format.ts";

/** One animation's own files as pages state them ("480p", "MP4"); null where nothing was recorded. */
export type MediaClaims = { resolution: string | null; formats: string | null };

export function mediaClaimsOf(animation: { videoWidth: number | null; videoHeight: number | null; downloadFormats: string[] }): MediaClaims {
  return {
    resolution: animation.videoWidth && animation.videoHeight ? formatResolution(animation.videoWidth, animation.videoHeight) : null,
    formats: animation.downloadFormats.length ? formatFileTypes(animation.downloadFormats) : null,
  };
}
