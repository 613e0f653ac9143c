// The catalogue's public shapes: what HTML loaders and /api answers carry. Types only, so the
// browser bundle may import them; the server builds them in catalogue/*.server.ts.

import type { MedicalReviewClaim } from "./medical-review-claim.ts";

export type DoctorSummary = { id: string; slug: string; name: string; specialty: string; photo: string | null };

/** A home or search card (`light=true`): no description, never a full video or download. */
export type AnimationCardDto = {
  id: string;
  slug: string;
  title: string;
  coverImage: string | null;
  /** The 10-second preview: public, for hover previews. */
  previewVideo: string | null;
  duration: number;
  categoryId: string | null;
  categoryName: string | null;
  individualPrice: number;
};

/**
 * The full animation as a given viewer may see it. `fullVideo` and `downloadFile` are null
 * unless that viewer holds the right (docs/architecture.md, "Access rules").
 */
export type AnimationDto = AnimationCardDto & {
  description: string;
  fullVideo: string | null;
  downloadFile: string | null;
  hasAccess: boolean;
  canDownload: boolean;
  views: number;
  createdAt: string;
  doctors: DoctorSummary[];
};

/** A category or subcategory grid item: public fields plus whether this viewer may watch it. */
export type AnimationSummaryDto = AnimationCardDto & { description: string; views: number; hasAccess: boolean };

export type CategoryRef = { id: string; name: string; slug: string };

/** The detail page's view of its category: enough for breadcrumbs and the licence box. */
export type AnimationCategory = CategoryRef & { yearlyPrice: number | null; parent: CategoryRef | null };

/**
 * What a player plays, from the media pipeline's current set (services/media/media-urls.server.ts):
 * the full ladder at URLs signed for one viewer, or the public 10-second preview. Null when the
 * animation has no finished set yet (the player then falls back to the stored files).
 */
export type PlaybackDto = {
  isPreview: boolean;
  /** The HLS master playlist: hls.js, or the browser's own HLS (Safari, iOS). */
  hls: string;
  /** The progressive MP4 (720p or the master's size if smaller): the `<video src>` without JavaScript. */
  mp4: string;
  /** WebVTT of storyboard thumbnails (`sprite.jpg#xywh=x,y,w,h` cues) for seek previews; null for previews. */
  storyboard: string | null;
  /** The ladder's rungs, lowest first: the quality menu offers Auto and these. */
  rungs: { height: number; bitrate: number }[];
  /** The frame size of the largest rung (the player's aspect ratio). */
  width: number;
  height: number;
};

/** A download the viewer may take: the uploaded package or one of the pipeline's renditions. */
export type DownloadDto = { label: string; format: string; href: string; bytes: number | null };

/** A caption track for the player's <track>: src is the stored WebVTT file. */
export type CaptionTrackDto = { language: string; label: string; src: string };

export type AnimationDetailDto = AnimationDto & {
  category: AnimationCategory | null;
  /** English first; public for an active animation (the media router serves them to anyone). */
  captions: CaptionTrackDto[];
  /** The first track's cue text, for the page's "Transcript"; null without captions. */
  transcript: { language: string; label: string; text: string } | null;
  /** The current medical review (reviewer, date, next review), or null: then no page claims one. */
  medicalReview: MedicalReviewClaim | null;
  /** This animation's own files: its video's resolution and its download's formats. */
  media: { resolution: string | null; formats: string | null };
  /** The media pipeline's playback for this viewer (full or preview); null before its first set. */
  playback: PlaybackDto | null;
};

export type AnimationList<T> = {
  animations: T[];
  hasMore: boolean;
  total: number;
  /** The search term with its misspellings corrected, when the results are for it (the term as typed matched nothing). */
  suggestion?: string;
};

export type SubcategoryDto = {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  yearlyPrice: number | null;
  animationCount: number;
};

export type CategoryDto = SubcategoryDto & {
  thumbnail: string | null;
  parentId: string | null;
};

export type CategoryDetailDto = CategoryDto & {
  parent: CategoryRef | null;
  subcategories: SubcategoryDto[];
};

export type DoctorDto = DoctorSummary & {
  description: string | null;
  website: string | null;
  instagram: string | null;
};

/** A verified animation on a doctor's profile: public fields only. */
export type VerifiedAnimationDto = {
  id: string;
  slug: string;
  title: string;
  description: string;
  coverImage: string | null;
  duration: number;
};

export type DoctorProfileDto = DoctorDto & { verifiedAnimations: VerifiedAnimationDto[] };
