import { escapeHtml } from "~/lib/sanitize.server.ts";
import { storageOrigin } from "~/lib/storage.server.ts";
import { getEnv } from "~/lib/env.server.ts";
import { formatMedicalReview } from "~/services/catalogue/medical-review-claim.ts";
import { signEmbedMedia } from "~/services/licensing/embed-media.server.ts";
import { embedPlaybackUrl } from "~/services/media/media-urls.server.ts";
import {
  EMBED_NOT_AVAILABLE,
  LICENCE_ENDED,
  NOT_LICENSED_HERE,
  resolveEmbed,
  VIDEO_NO_LONGER_AVAILABLE,
  type EmbedDecision,
} from "~/services/licensing/embeds.server.ts";
import type { Route } from "./+types/embed";

// /embed/{animationId}[?licence={id}]: the player a licensee frames on its own site. A resource
// route answering a complete small HTML document: a plain <video> (plays with JavaScript off),
// no framework bundle, no script at all. Its own Content-Security-Policy names the licence's
// sites (and Medanim itself, for the licensee's preview) in frame-ancestors (the edge adapter
// lets a route's policy replace the global one and drops X-Frame-Options for it), so a browser
// shows it nowhere else. A frame on another site gets the "not licensed" card instead, which
// carries no media and may be framed anywhere (decision 013). Never cached by browsers
// (no-store); the server reuses a licence's row for at most 15 s, so an ended licence shows the
// card within that, and its signed video URLs stop at once (embeds.server.ts).

/**
 * Who may frame the document: Medanim and the licence's sites (a list), "anywhere" (the card
 * for other sites) or "nowhere" (an embed that does not exist).
 */
type Framing = string[] | "anywhere" | "nowhere";

const FRAME_ANCESTORS = { anywhere: "*", nowhere: "'none'" } as const;

function policy(framing: Framing) {
  const storage = storageOrigin() ? ` ${storageOrigin()}` : "";
  const mediaBase = getEnv().MEDIA_BASE_URL ? ` ${new URL(getEnv().MEDIA_BASE_URL!).origin}` : "";
  return [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    `img-src 'self'${storage}`,
    `media-src 'self'${storage}${mediaBase}`,
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${typeof framing === "string" ? FRAME_ANCESTORS[framing] : ["'self'", ...framing].join(" ")}`,
  ].join("; ");
}

// The video fills the frame (the snippet's box has the video's shape, so no black bars); the
// title and review lie over its top edge until it plays, where the browser knows :playing.
const STYLE =
  "html,body{margin:0;height:100%;overflow:hidden;background:#0f172a;color:#f8fafc;font:14px/1.4 system-ui,sans-serif}" +
  "main{position:relative;display:flex;height:100%}" +
  "video{display:block;width:100%;height:100%;object-fit:contain;background:#000}" +
  // Captions sized by the frame's width: Chrome's own cue size follows the video's height and
  // fell to about 7 px in a phone's 390 px frame; 14 px there, 27 px in the 960 px default.
  "video::cue{font-size:clamp(14px,2.8vw,28px)}" +
  "header{position:absolute;top:0;left:0;right:0;padding:6px 10px 16px;background:linear-gradient(#0f172ae6 60%,#0f172a00);pointer-events:none}" +
  "main:has(video:playing) header{display:none}" +
  "h1,p{margin:0;font-size:14px}.d{color:#cbd5e1;font-size:12px}" +
  // On a phone's narrow frame the bar keeps to three lines: the title's one, the review's two.
  "header h1{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}" +
  "header .d{display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:2;overflow:hidden}" +
  ".card{margin:auto;max-width:28em;padding:16px;text-align:center}.card p{margin-top:6px}.card a{color:#93c5fd}";

// The <main> is named: framed, it sits inside a page with a <main> of its own, and assistive
// technology lists both landmarks side by side.
function documentHtml(title: string, body: string) {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta name="robots" content="noindex"><title>${escapeHtml(title)} | Medanim</title><style>${STYLE}</style></head>` +
    `<body><main aria-label="${escapeHtml(title)}">${body}</main></body></html>`
  );
}

function player(decision: Extract<EmbedDecision, { kind: "play" }>) {
  const { animation, licenceId, host } = decision;
  // One signature for the video and its captions: it binds licence, animation, site and time.
  const signed = signEmbedMedia({ licenceId, animationId: animation.id, host });
  const media = `/embed-media/${animation.id}`;
  const tracks = animation.captions
    .map(
      (c, i) =>
        `<track kind="captions" src="${escapeHtml(`${media}/captions/${encodeURIComponent(c.language)}?${signed}`)}" srclang="${escapeHtml(c.language)}" label="${escapeHtml(c.label)}"${i === 0 ? " default" : ""}>`,
    )
    .join("");
  // Without scripts there is no hls.js: the set's progressive MP4 (720p at most), signed for
  // this licence and site; before the first set, the stored video through the same signature.
  const video = animation.mediaSetId
    ? embedPlaybackUrl(animation.mediaSetId, animation.duration, licenceId, host)
    : `${media}/video?${signed}`;
  const poster = animation.coverImage ? ` poster="${escapeHtml(animation.coverImage)}"` : "";
  // The review line only while the review is current; otherwise the player claims nothing.
  const review = animation.medicalReview ? `<p class="d">${escapeHtml(formatMedicalReview(animation.medicalReview))}</p>` : "";
  // preload="none": the video is fetched when the viewer presses play, so each playback start
  // is one request (and one counted play), and a page view costs no video bytes.
  return documentHtml(
    animation.title,
    `<video controls preload="none" playsinline${poster} aria-label="${escapeHtml(animation.title)}">` +
      `<source src="${escapeHtml(video)}" type="video/mp4">${tracks}Your browser cannot play this video.</video>` +
      `<header><h1>${escapeHtml(animation.title)}</h1>${review}</header>`,
  );
}

/**
 * An ended licence: its licensee (the preview on My Animations) reads why and where to renew;
 * a patient on the clinic's site reads only that the video is gone (the clinic is e-mailed).
 */
function endedCard(decision: Extract<EmbedDecision, { kind: "ended" }>) {
  if (!decision.forLicensee) {
    return documentHtml(
      decision.animation.title,
      `<div class="card"><h1>${VIDEO_NO_LONGER_AVAILABLE}</h1><p class="d">${escapeHtml(decision.animation.title)}</p></div>`,
    );
  }
  return documentHtml(
    decision.animation.title,
    `<div class="card"><h1>${LICENCE_ENDED}</h1><p class="d">${escapeHtml(decision.animation.title)}</p>` +
      `<p><a href="${escapeHtml(decision.renewUrl)}" target="_blank" rel="noopener">Renew the license</a></p></div>`,
  );
}

/** On a site the licence does not name: the title and where to watch it, no media, no licence. */
function elsewhereCard(decision: Extract<EmbedDecision, { kind: "elsewhere" }>) {
  return documentHtml(
    decision.animation.title,
    `<div class="card"><h1>${NOT_LICENSED_HERE}</h1><p class="d">${escapeHtml(decision.animation.title)}</p>` +
      `<p><a href="${escapeHtml(decision.animation.pageUrl)}" target="_blank" rel="noopener">Watch it on Medanim</a></p></div>`,
  );
}

function answer(status: number, html: string, framing: Framing, method: string) {
  return new Response(method === "HEAD" ? null : html, {
    status,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": policy(framing),
      "Cache-Control": "no-store",
      // Framed by other sites on purpose: the opener policy must not isolate it from its parent.
      "Cross-Origin-Opener-Policy": "unsafe-none",
    },
  });
}

export async function loader({ request, params, url }: Route.LoaderArgs) {
  const decision = await resolveEmbed(params.animationId, {
    licenceId: url.searchParams.get("licence"),
    referer: request.headers.get("Referer"),
    fetchDest: request.headers.get("Sec-Fetch-Dest"),
  });
  if (decision.kind === "play") return answer(200, player(decision), decision.frameAncestors, request.method);
  if (decision.kind === "ended") return answer(200, endedCard(decision), decision.frameAncestors, request.method);
  if (decision.kind === "elsewhere") return answer(200, elsewhereCard(decision), "anywhere", request.method);
  return answer(404, documentHtml(EMBED_NOT_AVAILABLE, `<div class="card"><h1>${EMBED_NOT_AVAILABLE}</h1></div>`), "nowhere", request.method);
}
