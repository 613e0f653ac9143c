// The home cards' duration, alone in its module: the cards are on the home page, whose
// JavaScript has a budget, and need nothing else from format.ts.

/** Duration in seconds with an "s" suffix, as the home cards show it, e.g. 125 → "125s". */
export function formatSeconds(totalSeconds: number | null | undefined): string {
  return `${Math.max(0, Math.floor(Number(totalSeconds) || 0))}s`;
}
