import { type LadderPlayer, playLadder } from "./adaptive-stream.ts";
import { enhancePlayerControls } from "./player-controls.ts";
import { showSeekThumbnails } from "./seek-preview.ts";

/**
 * What JavaScript adds to a player that components/catalogue/video-player.tsx rendered (`root`
 * is its `[data-player]`); without it the <video> plays its `src` with the browser's controls.
 * Its controls (lib/dom/player-controls.ts: the preview's end, the overlay) and its stream, at
 * once. Plain DOM code: the React player's effect runs it on /watch; a page that does not hydrate
 * (decision 025) runs it from its own script, or `enhancePlayerOnPlay`
 * (lib/dom/player-on-play.ts), which loads the stream's code on the first play. Returns the
 * function that stops it.
 */
export function enhancePlayer(root: HTMLElement) {
  const stopControls = enhancePlayerControls(root);
  const stopStream = enhanceStream(root);
  return () => {
    stopStream();
    stopControls();
  };
}

/**
 * The player's stream:
 * - A full video with a ladder (`data-hls`, `data-mp4`) moves to it (lib/dom/adaptive-stream.ts);
 *   the quality menu (`[data-quality]`, hidden) appears with Auto and the rungs once hls.js plays.
 * - With a storyboard (`data-storyboard`), a seek shows its thumbnail (`[data-storyboard-thumb]`).
 */
export function enhanceStream(root: HTMLElement) {
  const video = root.querySelector("video");
  if (!video) return () => undefined;
  const stops: (() => void)[] = [];
  const { hls, mp4, storyboard } = video.dataset;

  if (hls && mp4) {
    const menu = root.querySelector<HTMLElement>("[data-quality]");
    const select = menu?.querySelector("select");
    let ladder: LadderPlayer | null = null;
    const onChange = () => ladder?.chooseLevel(Number(select!.value));
    ladder = playLadder(video, { hls, mp4 }, (rungs) => {
      if (!menu || !select) return;
      // The first option is the server's Auto, in the player's language.
      select.replaceChildren(select.options[0]!, ...rungs.map((rung) => new Option(`${rung.height}p`, String(rung.level))));
      select.value = "-1";
      menu.hidden = rungs.length === 0;
    });
    select?.addEventListener("change", onChange);
    stops.push(() => {
      select?.removeEventListener("change", onChange);
      ladder?.stop();
    });
  }

  const thumb = root.querySelector<HTMLElement>("[data-storyboard-thumb]");
  if (storyboard && thumb) stops.push(showSeekThumbnails(video, storyboard, thumb));

  return () => {
    for (const stop of stops) stop();
  };
}
