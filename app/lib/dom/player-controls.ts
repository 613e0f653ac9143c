/**
 * What every player gets from JavaScript at once, without the streaming code
 * (components/catalogue/video-player.tsx rendered `root`, its `[data-player]`):
 * - `data-playing` on the player while the video plays, which fades the title overlay where the
 *   browser lacks `:playing` (app.css);
 * - a preview with offers (`[data-preview-end]`, hidden) shows them when it ends, focused, with
 *   Replay preview; playing again hides them.
 * Returns the function that stops it.
 */
export function enhancePlayerControls(root: HTMLElement) {
  const video = root.querySelector("video");
  if (!video) return () => undefined;
  const stops: (() => void)[] = [];

  if (root.querySelector("[data-player-overlay]")) {
    const onPlaying = () => root.toggleAttribute("data-playing", !video.paused && !video.ended);
    for (const type of ["play", "pause", "ended", "emptied"]) video.addEventListener(type, onPlaying);
    stops.push(() => {
      for (const type of ["play", "pause", "ended", "emptied"]) video.removeEventListener(type, onPlaying);
    });
  }

  const end = root.querySelector<HTMLElement>("[data-preview-end]");
  if (end) {
    const panel = end.querySelector<HTMLElement>("[tabindex]");
    const replay = end.querySelector<HTMLButtonElement>("[data-replay]");
    // The server's preview file ends at the 10-second cap: its end is where the offers come in.
    const onEnded = () => {
      end.hidden = false;
      // Focus goes to the panel, so keyboard and screen reader users hear what comes next.
      panel?.focus();
    };
    const onPlay = () => (end.hidden = true);
    // Playing an ended video starts it over; onPlay hides the panel, so focus goes back to the player.
    const onReplay = () => {
      video.focus();
      void video.play().catch(() => undefined);
    };
    video.addEventListener("ended", onEnded);
    video.addEventListener("play", onPlay);
    replay?.addEventListener("click", onReplay);
    stops.push(() => {
      video.removeEventListener("ended", onEnded);
      video.removeEventListener("play", onPlay);
      replay?.removeEventListener("click", onReplay);
    });
  }
  return () => {
    for (const stop of stops) stop();
  };
}
