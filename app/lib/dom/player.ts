import { type LadderPlayer, playLadder } from "./adaptive-stream.ts";
import { showSeekThumbnails } from "./seek-preview.ts";

/**
 * What JavaScript adds to a player that components/catalogue/video-player.tsx rendered (`root`
 * is its `[data-player]`); without it the <video> plays its `src` with the browser's controls.
 * - A full video with a ladder (`data-hls`, `data-mp4`) moves to it (lib/dom/adaptive-stream.ts);
 *   the quality menu (`[data-quality]`, hidden) appears with Auto and the rungs once hls.js plays.
 * - With a storyboard (`data-storyboard`), a seek shows its thumbnail (`[data-storyboard-thumb]`).
 * - A preview with offers (`[data-preview-end]`, hidden) shows them when it ends, focused, with
 *   Replay preview; playing again hides them.
 * Plain DOM code: the React player's effect runs it on /watch, the animation page's own script on
 * that page (it does not hydrate, decision 025). Returns the function that stops it.
 */
export function enhancePlayer(root: HTMLElement) {
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
