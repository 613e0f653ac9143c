// Safe in the browser and on the server: the cards, the players and the media pipeline agree on
// one number.

/** The cap on a preview: the media pipeline cuts each animation's first 10 seconds. */
export const PREVIEW_SECONDS = 10;

/** How long an animation's public preview plays: the cap, or the whole animation when it is shorter. */
export function previewSecondsOf(duration: number | null | undefined): number {
  return duration && duration > 0 ? Math.min(PREVIEW_SECONDS, duration) : PREVIEW_SECONDS;
}
