import { trackPlayback } from "~/lib/dom/playback-beacons.ts";
import { enhancePlayerOnPlay } from "~/lib/dom/player-on-play.ts";

// A page that is a player alone (routes/public/embed.tsx, routes/public/patient-link.tsx): the
// site's player behaviour, its streaming code loaded on the first play as on the animation page
// (lib/dom/player-on-play.ts: a clinic's every page view would otherwise load hls.js), the playback beacons where the page carries an
// analytics key, and fresh media URLs when the signed ones have run out: the URLs live the
// video's length and 10 minutes (media-urls.server.ts), so a page left open longer reloads
// itself when the viewer presses play, before any request is refused.

const page = document.querySelector<HTMLElement>("[data-player-page]");
const expires = Number(page?.dataset.expires ?? 0);

for (const root of document.querySelectorAll<HTMLElement>("[data-player]")) {
  const video = root.querySelector("video");
  if (!video) continue;
  if (expires) {
    video.addEventListener(
      "play",
      () => {
        if (Date.now() < expires - 30_000) return;
        video.pause();
        window.location.reload();
      },
      { capture: true },
    );
  }
  enhancePlayerOnPlay(root);
  if (video.dataset.analytics) trackPlayback(video, video.dataset.analytics);
}
