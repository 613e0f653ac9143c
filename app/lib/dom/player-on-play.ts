import { enhancePlayerControls } from "./player-controls.ts";

// What makes a viewer's intent to play plain before the `play` event: a press on the video or a key on it.
const INTENT_EVENTS = ["play", "pointerdown", "keydown"] as const;

/**
 * The player's controls now, its streaming code (lib/dom/player.ts: hls.js, the quality menu, the
 * storyboard's thumbnails) when the viewer first presses play, or presses or types on the video:
 * a page view loads none of it (issue 46: the animation page's Total Blocking Time). The progressive
 * MP4 the server rendered starts at once; the ladder takes over from where it is
 * (lib/dom/adaptive-stream.ts carries the time and the playing state over).
 */
export function enhancePlayerOnPlay(root: HTMLElement) {
  const video = root.querySelector("video");
  const stopControls = enhancePlayerControls(root);
  if (!video) return stopControls;
  const { hls, mp4, storyboard } = video.dataset;
  // A preview, or a full video without a finished set: nothing more to load.
  if (!(hls && mp4) && !storyboard) return stopControls;
  let stopped = false;
  let stopStream: () => void = () => undefined;
  const load = () => {
    stopWaiting();
    import("./player.ts")
      .then(({ enhanceStream }) => {
        if (!stopped) stopStream = enhanceStream(root);
      })
      // The chunk did not arrive (offline, a new deploy): the MP4 plays on, as without JavaScript.
      .catch(() => undefined);
  };
  const stopWaiting = () => {
    for (const type of INTENT_EVENTS) video.removeEventListener(type, load);
  };
  // Played before the script ran (a slow line): the ladder takes over now.
  if (!video.paused || video.currentTime > 0) load();
  else for (const type of INTENT_EVENTS) video.addEventListener(type, load);
  return () => {
    stopped = true;
    stopWaiting();
    stopStream();
    stopControls();
  };
}
