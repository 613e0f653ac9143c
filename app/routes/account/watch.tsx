import { redirect } from "react-router";
import { Link } from "~/components/ui/link.tsx";
import { z } from "zod";
import { GeneralErrorBoundary } from "~/components/error-boundary.tsx";
import { TextLink } from "~/components/ui/text-link.tsx";
import { buttonClass } from "~/components/ui/button.tsx";
import { DownloadList } from "~/components/catalogue/download-list.tsx";
import { VideoPlayer } from "~/components/catalogue/video-player.tsx";
import { formatDuration } from "~/lib/format.ts";
import { parseParams } from "~/lib/params.server.ts";
import { getAccess } from "~/services/licensing/access.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { getPlayableAnimation } from "~/services/catalogue/animations.server.ts";
import { UUID_RE } from "~/validation/account.ts";
import { NOINDEX } from "~/lib/seo.ts";
import type { Route } from "./+types/watch";
import { asRouteError } from "~/lib/errors.server.ts";
import { previewSecondsOf } from "~/lib/preview.ts";
import { playerWords } from "~/lib/i18n/player.ts";

const WatchParams = z.object({ id: z.string().regex(UUID_RE) });

export const meta: Route.MetaFunction = ({ data }) => [{ title: `${data?.animation.title ?? "Watch"} | Medanim` }, NOINDEX];

/**
 * The full player (the target of My Animations cards). Only an entitled viewer gets the full
 * video path, and the media router checks the right again when the file is requested; anyone
 * else is sent to the animation page with its 10-second preview.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const { id } = parseParams(params, WatchParams, "Animation not found");
  const playable = await getPlayableAnimation(id, await getAccess(user)).catch(asRouteError);
  if (!playable.watchable) throw redirect(playable.pageHref);
  const { animation } = playable;
  // The player's words, made here: the page hydrates, and the browser needs them, not i18next.
  const words = playerWords("en", { title: animation.title, isPreview: false, previewSeconds: previewSecondsOf(animation.duration) });
  return { animation, words };
}

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function Watch({ loaderData: { animation, words } }: Route.ComponentProps) {
  return (
    <main className="mx-auto max-w-5xl px-4 py-10">
      <p className="text-sm">
        <TextLink to="/my-animations">← Back to My Animations</TextLink>
      </p>
      <h1 className="mt-2 text-3xl font-bold">{animation.title}</h1>
      <p className="mt-1 text-sm text-slate-600">
        {animation.categoryName ? `${animation.categoryName} · ` : ""}
        {formatDuration(animation.duration)}
      </p>
      <div className="mt-6">
        <VideoPlayer
          videoId={animation.id}
          src={animation.fullVideo}
          playback={animation.playback}
          poster={animation.coverImage}
          words={words}
          isPreview={false}
          previewSeconds={previewSecondsOf(animation.duration)}
          tracks={animation.captions}
        />
      </div>
      <div className="mt-6 flex flex-wrap gap-3">
        <Link to={`/animations/${animation.slug || animation.id}`} className={buttonClass({ variant: "secondary" })}>
          Animation details
        </Link>
      </div>
      {animation.downloads.length ? (
        <div className="mt-6">
          <DownloadList downloads={animation.downloads} />
        </div>
      ) : null}
      <p className="mt-6 whitespace-pre-line text-slate-700">{animation.description}</p>
    </main>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
