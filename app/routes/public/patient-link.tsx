import { data } from "react-router";
import { VideoPlayer } from "~/components/catalogue/video-player.tsx";
import { medicalReviewLine, playerLanguage, playerT, playerWords } from "~/lib/i18n/player.ts";
import { staticPageWith, type PageHandle } from "~/lib/page-handle.ts";
import { signPlaybackContext } from "~/services/analytics/playback-context.server.ts";
import { embedVideoUrl } from "~/services/licensing/embed-media.server.ts";
import { openPatientLink } from "~/services/licensing/patient-links.server.ts";
import { getCurrentSet, licensedMediaTtlSeconds, licensedPlaybackFor } from "~/services/media/media-urls.server.ts";
import type { Route } from "./+types/patient-link";

// /p/{token}: what a clinic sent a patient. No account, no sales: the clinic's name, its note,
// and each animation in full in the site's player (HLS with a quality menu, captions in the
// link's language first, the transcript), plain HTML that plays with JavaScript off. Never
// indexed (noindex, in no sitemap) and never cached; the media URLs are signed for this link
// alone and stop when the link or its licence does. An expired, revoked or unknown link reads
// the same neutral message.

export const handle: PageHandle = { ...staticPageWith("player"), document: "bare" };

export const meta: Route.MetaFunction = ({ data }) => [
  { title: data?.state === "live" ? `${data.clinicName} | ${data.animations[0]?.title ?? ""}` : (data?.heading ?? "") },
  { name: "robots", content: "noindex, nofollow" },
];

const HEADERS = {
  "Cache-Control": "no-store",
  "X-Robots-Tag": "noindex, nofollow",
  // The token is the link: no request from the page may carry it elsewhere.
  "Referrer-Policy": "no-referrer",
};

export async function loader({ request, params }: Route.LoaderArgs) {
  const link = await openPatientLink(params.token);
  const lang = playerLanguage(request.headers.get("Accept-Language"), link.state === "not-found" ? null : link.language);
  const t = playerT(lang);
  if (link.state !== "live") {
    const status = link.state === "ended" ? 410 : 404;
    return data(
      { state: "ended" as const, lang, heading: t("linkEnded"), detail: t("linkEndedDetail"), clinicName: link.state === "ended" ? link.clinicName : null },
      { status, headers: HEADERS },
    );
  }
  const grant = { kind: "p" as const, linkId: link.linkId };
  const animations = await Promise.all(
    link.animations.map(async (animation) => {
      const set = await getCurrentSet(animation.mediaSetId);
      const playback = set ? licensedPlaybackFor(set, grant) : null;
      // Before the first transcode: the stored video, at a URL signed for this link.
      const ttl = licensedMediaTtlSeconds(animation.duration);
      const src = playback?.mp4 ?? (animation.hasVideo ? embedVideoUrl({ animationId: animation.id, linkId: link.linkId }, ttl) : null);
      const inLanguage = (language: string) => language === lang || language.startsWith(`${lang}-`);
      const captions = [...animation.captions].sort((a, b) => Number(inLanguage(b.language)) - Number(inLanguage(a.language)));
      return {
        id: animation.id,
        title: animation.title,
        review: animation.review ? medicalReviewLine(lang, animation.review) : null,
        poster: animation.coverImage,
        src,
        playback,
        expires: playback?.expires ?? (Math.floor(Date.now() / 1000) + ttl) * 1000,
        tracks: captions.map((c) => ({ language: c.language, label: c.label, src: c.path })),
        transcripts: captions.filter((c) => c.transcript).map((c) => ({ language: c.language, label: c.label, text: c.transcript })),
        analytics: signPlaybackContext({ licenceId: link.licenceId, animationId: animation.id, source: { kind: "link", linkId: link.linkId } }),
        words: playerWords(lang, { title: animation.title, isPreview: false, previewSeconds: 0 }),
      };
    }),
  );
  // Every animation withdrawn from the catalogue (or no longer covered): nothing left to play.
  if (animations.length === 0) {
    return data({ state: "ended" as const, lang, heading: t("noLongerAvailable"), detail: t("linkEndedDetail"), clinicName: link.clinicName }, { status: 410, headers: HEADERS });
  }
  // The page asks for fresh URLs (a reload) when the earliest would have expired at play.
  const expires = Math.min(...animations.map((a) => a.expires));
  return data(
    {
      state: "live" as const,
      lang,
      clinicName: link.clinicName,
      logo: link.logo,
      note: link.note,
      worksUntil: t("linkWorksUntil", { date: new Intl.DateTimeFormat(lang === "es" ? "es" : "en-US", { dateStyle: "long", timeZone: "UTC" }).format(link.expiresAt) }),
      fromClinic: t("fromClinic", { clinic: link.clinicName }),
      expires,
      animations: animations.map((a, index) => ({ ...a, position: animations.length > 1 ? t("videoOf", { n: index + 1, count: animations.length }) : null })),
    },
    { headers: HEADERS },
  );
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export default function PatientLinkPage({ loaderData }: Route.ComponentProps) {
  if (loaderData.state !== "live") {
    return (
      <main className="flex min-h-screen items-center justify-center bg-slate-50 p-6 text-center">
        <div className="max-w-md">
          {loaderData.clinicName ? <p className="text-sm font-semibold text-slate-600">{loaderData.clinicName}</p> : null}
          <h1 className="mt-2 text-xl font-semibold text-slate-900">{loaderData.heading}</h1>
          <p className="mt-2 text-slate-700">{loaderData.detail}</p>
        </div>
      </main>
    );
  }
  return (
    <div className="min-h-screen bg-slate-50" data-player-page data-expires={loaderData.expires}>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-4xl items-center gap-3 px-4 py-3">
          {/* Beside the name it shows: decorative for assistive technology. */}
          {loaderData.logo ? <img src={loaderData.logo} alt="" className="h-10 w-auto max-w-40 object-contain" data-testid="patient-link-logo" /> : null}
          <h1 className="font-semibold text-slate-900" data-testid="patient-link-clinic">
            {loaderData.fromClinic}
          </h1>
        </div>
      </header>
      <main className="mx-auto max-w-4xl space-y-8 px-4 py-6">
        {loaderData.note ? (
          <p className="rounded-xl border border-slate-200 bg-white p-4 whitespace-pre-line text-slate-800" data-testid="patient-link-note">
            {loaderData.note}
          </p>
        ) : null}
        {loaderData.animations.map((animation) => (
          <section key={animation.id} aria-labelledby={`title-${animation.id}`} data-testid="patient-link-animation">
            {animation.position ? <p className="text-sm text-slate-600">{animation.position}</p> : null}
            <h2 id={`title-${animation.id}`} className="text-xl font-semibold text-slate-900">
              {animation.title}
            </h2>
            {animation.review ? <p className="mt-1 text-sm text-slate-600">{animation.review}</p> : null}
            <div className="mt-3">
              <VideoPlayer
                videoId={animation.id}
                src={animation.src}
                playback={animation.playback}
                poster={animation.poster}
                words={animation.words}
                isPreview={false}
                previewSeconds={0}
                tracks={animation.tracks}
                lang={loaderData.lang}
                transcripts={animation.transcripts}
                analytics={animation.analytics}
              />
            </div>
          </section>
        ))}
        <p className="text-sm text-slate-600">{loaderData.worksUntil}</p>
      </main>
    </div>
  );
}
