import { data } from "react-router";
import { VideoPlayer } from "~/components/catalogue/video-player.tsx";
import { medicalReviewLine, type PlayerLanguage, playerLanguage, playerT, playerWords } from "~/lib/i18n/player.ts";
import { getEnv } from "~/lib/env.server.ts";
import type { PageHandle } from "~/lib/page-handle.ts";
import { requestInfo } from "~/lib/request-context.server.ts";
import { storageOrigin } from "~/lib/storage.server.ts";
import { signPlaybackContext } from "~/services/analytics/playback-context.server.ts";
import { embedVideoUrl } from "~/services/licensing/embed-media.server.ts";
import { resolveEmbed, type EmbedDecision } from "~/services/licensing/embeds.server.ts";
import { getCurrentSet, licensedMediaTtlSeconds, licensedPlaybackFor } from "~/services/media/media-urls.server.ts";
import type { Route } from "./+types/embed";

// /embed/{animationId}[?licence={id}]: the player a licensee frames on its own site: the site's
// own player (HLS with the quality menu, captions in the viewer's language, the transcript)
// alone in a bare document, plain HTML that plays with JavaScript off. Its own
// Content-Security-Policy names the licence's sites (and Medanim itself, for the licensee's
// preview) in frame-ancestors (the edge adapter lets a route's policy replace the global one and
// drops X-Frame-Options for it), so a browser shows it nowhere else; the domain lock
// (embeds.server.ts resolveEmbed) gives media URLs only to a frame on a licensed site. Anywhere
// else the "not licensed" card, which carries no media and may be framed anywhere (decision 013).
// Never cached (no-store); the server reuses a licence's row for at most 15 s, so an ended
// licence shows its card within that, and its signed media URLs stop at once.

export const handle: PageHandle = { hydrate: false, script: "player", document: "bare" };

export const meta: Route.MetaFunction = ({ data }) => [{ title: `${data?.title ?? ""} | Medanim` }, { name: "robots", content: "noindex" }];

/** Who may frame the document: Medanim and the licence's sites, "anywhere" (the card) or "nowhere" (no such embed). */
type Framing = string[] | "anywhere" | "nowhere";

const FRAME_ANCESTORS = { anywhere: "*", nowhere: "'none'" } as const;

function policy(framing: Framing, nonce: string) {
  const storage = storageOrigin() ? ` ${storageOrigin()}` : "";
  const mediaBase = getEnv().MEDIA_BASE_URL ? ` ${new URL(getEnv().MEDIA_BASE_URL!).origin}` : "";
  return [
    "default-src 'none'",
    // The page's own script; 'strict-dynamic' lets it import hls.js when the viewer presses play.
    `script-src 'nonce-${nonce}' 'strict-dynamic'`,
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data:${storage}${mediaBase}`,
    // blob: is hls.js's MediaSource; connect-src is what hls.js and the beacons fetch.
    `media-src 'self' blob:${storage}${mediaBase}`,
    `connect-src 'self'${storage}${mediaBase}`,
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${typeof framing === "string" ? FRAME_ANCESTORS[framing] : ["'self'", ...framing].join(" ")}`,
  ].join("; ");
}

function headersFor(framing: Framing, nonce: string) {
  return {
    "Content-Security-Policy": policy(framing, nonce),
    "Cache-Control": "no-store",
    // Framed by other sites on purpose: the opener policy must not isolate it from its parent.
    "Cross-Origin-Opener-Policy": "unsafe-none",
  };
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const decision = await resolveEmbed(params.animationId, {
    licenceId: url.searchParams.get("licence"),
    referer: request.headers.get("Referer"),
    fetchDest: request.headers.get("Sec-Fetch-Dest"),
  });
  const lang = playerLanguage(request.headers.get("Accept-Language"));
  const t = playerT(lang);
  const nonce = requestInfo(context).cspNonce;
  if (decision.kind === "play") {
    return data({ kind: "play" as const, lang, title: decision.animation.title, player: await playerOf(decision, lang) }, { headers: headersFor(decision.frameAncestors, nonce) });
  }
  if (decision.kind === "ended") {
    // Its licensee (the preview on My Animations) reads why and where to renew; a patient on the
    // clinic's site reads only that the video is gone (the clinic is e-mailed).
    const card = decision.forLicensee
      ? { heading: t("licenceEnded"), detail: decision.animation.title, link: { href: decision.renewUrl, text: t("renewLicence") } }
      : { heading: t("noLongerAvailable"), detail: decision.animation.title, link: null };
    return data({ kind: "card" as const, lang, title: decision.animation.title, card }, { headers: headersFor(decision.frameAncestors, nonce) });
  }
  if (decision.kind === "elsewhere") {
    const card = { heading: t("notLicensedHere"), detail: decision.animation.title, link: { href: decision.animation.pageUrl, text: t("watchOnMedanim") } };
    return data({ kind: "card" as const, lang, title: decision.animation.title, card }, { headers: headersFor("anywhere", nonce) });
  }
  const card = { heading: t("embedNotAvailable"), detail: null, link: null };
  return data({ kind: "card" as const, lang, title: card.heading, card }, { status: 404, headers: headersFor("nowhere", nonce) });
}

/** The player's sources, signed for this licence on this site, and its captions and transcripts in the viewer's language first. */
async function playerOf({ animation, licenceId, host }: Extract<EmbedDecision, { kind: "play" }>, lang: PlayerLanguage) {
  const set = await getCurrentSet(animation.mediaSetId);
  const playback = set ? licensedPlaybackFor(set, { kind: "l", licenceId, host }) : null;
  const src = playback?.mp4 ?? embedVideoUrl({ licenceId, animationId: animation.id, host }, licensedMediaTtlSeconds(animation.duration));
  const inLanguage = (language: string) => language === lang || language.startsWith(`${lang}-`);
  const captions = [...animation.captions].sort((a, b) => Number(inLanguage(b.language)) - Number(inLanguage(a.language)));
  return {
    id: animation.id,
    src,
    playback,
    expires: playback?.expires ?? (Math.floor(Date.now() / 1000) + licensedMediaTtlSeconds(animation.duration)) * 1000,
    poster: animation.coverImage,
    review: animation.medicalReview ? medicalReviewLine(lang, animation.medicalReview) : null,
    tracks: captions.map((c) => ({ language: c.language, label: c.label, src: c.path })),
    // One transcript, the viewer's language first: its bar under the picture takes one line of the frame.
    transcripts: captions
      .filter((c) => c.transcript)
      .slice(0, 1)
      .map((c) => ({ language: c.language, label: c.label, text: c.transcript })),
    analytics: signPlaybackContext({ licenceId, animationId: animation.id, source: { kind: "site", host } }),
    words: playerWords(lang, { title: animation.title, isPreview: false, previewSeconds: 0 }),
  };
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export default function Embed({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === "card") {
    const { card } = loaderData;
    // The <main> is named: framed, it sits inside a page with a <main> of its own.
    return (
      <main aria-label={loaderData.title} className="flex h-screen items-center justify-center bg-slate-900 p-4 text-center text-slate-50">
        <div className="max-w-md">
          <h1 className="text-base font-semibold">{card.heading}</h1>
          {card.detail ? <p className="mt-1 text-sm text-slate-300">{card.detail}</p> : null}
          {card.link ? (
            <p className="mt-2 text-sm">
              <a href={card.link.href} target="_blank" rel="noopener" className="text-blue-300 underline">
                {card.link.text}
              </a>
            </p>
          ) : null}
        </div>
      </main>
    );
  }
  const { player, title } = loaderData;
  return (
    <main aria-label={title} className="h-screen overflow-hidden bg-black" data-player-page data-expires={player.expires}>
      <VideoPlayer
        videoId={player.id}
        src={player.src}
        playback={player.playback}
        poster={player.poster}
        words={player.words}
        isPreview={false}
        previewSeconds={0}
        tracks={player.tracks}
        lang={loaderData.lang}
        overlay={{ title, detail: player.review }}
        transcripts={player.transcripts}
        analytics={player.analytics}
        fill
      />
    </main>
  );
}
