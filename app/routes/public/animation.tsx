import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { Link } from "~/components/ui/link.tsx";
import { AnimationDescription } from "~/components/catalogue/description.tsx";
import { DoctorAvatar } from "~/components/catalogue/doctor-avatar.tsx";
import { MisuseReport } from "~/components/catalogue/misuse-report.tsx";
import { CheaperCategoryNote } from "~/components/marketing.tsx";
import { RelatedList } from "~/components/catalogue/related-list.tsx";
import { ShareControl } from "~/components/catalogue/share-control.tsx";
import { TextLink } from "~/components/ui/text-link.tsx";
import { VideoPlayer } from "~/components/catalogue/video-player.tsx";
import { playerWords } from "~/lib/i18n/player.ts";
import { ErrorScreen, GeneralErrorBoundary } from "~/components/error-boundary.tsx";
import { ButtonLink } from "~/components/ui/button.tsx";
import { asRouteError, invariantResponse, ServiceError } from "~/lib/errors.server.ts";
import { formError, readFormData } from "~/lib/form.server.ts";
import { LinkCard } from "~/components/ui/link-card.tsx";
import { Section } from "~/components/ui/section.tsx";
import { formatCount, formatDuration, formatFileSize, formatYearlyPrice, parseDescription } from "~/lib/format.ts";
import { hasRenditions, OG_SIZE, ogImageUrl } from "~/lib/image-renditions.ts";
import { logger } from "~/lib/logger.server.ts";
import { LOAD_AS_DOCUMENT, staticPageWith } from "~/lib/page-handle.ts";
import { pageTitle } from "~/lib/meta.ts";
import { absoluteUrl, breadcrumbList, describe, pageHead, personOnSite, siteOf, videoObject } from "~/lib/seo.ts";
import { siteOrigin } from "~/lib/seo.server.ts";
import { clientAddress } from "~/lib/rate-limit.server.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { getViewerAccess, hasGlobalAccess } from "~/services/licensing/access.server.ts";
import { getAnimation, listRelatedAnimations, packageDownloads } from "~/services/catalogue/animations.server.ts";
import { formatMedicalReview } from "~/services/catalogue/medical-review-claim.ts";
import { NOT_FOUND } from "~/services/catalogue/categories.server.ts";
import { createMisuseReport, REPORT_FAILED, reportFailedText } from "~/services/admin/misuse-reports.server.ts";
import { previewSecondsOf } from "~/lib/preview.ts";
import { getAnimationOffers } from "~/services/commerce/offers.server.ts";
import { MisuseReportSchema } from "~/validation/catalogue.ts";
import type { Route } from "./+types/animation";

// Serves /animations/{slug} (id as the fallback) and /category/{main}/{sub}/{animationSlug}.

// The page does not hydrate (decision 025): the player, Share and the misuse report get their
// behaviour from the page's own script (app/static-page/animation-page.ts).
export const handle = staticPageWith("animation");
export const clientMiddleware = LOAD_AS_DOCUMENT;

export async function loader({ request, params }: Route.LoaderArgs) {
  const p = params;
  const slug = p.slug ?? p.animationSlug;
  invariantResponse(slug, NOT_FOUND.animation, { status: 404 });
  const access = await getViewerAccess(request);
  const animation = await getAnimation(slug, access, {
    // A page view counts once (HEAD requests do not).
    countView: request.method === "GET",
    path: p.mainSlug && p.subSlug ? { mainSlug: p.mainSlug, subSlug: p.subSlug } : undefined,
  }).catch(asRouteError);
  // Beside the animation: more of its subcategory and of its first doctor (cached with the catalogue).
  const doctor = animation.doctors[0];
  const [related, offers, downloads] = await Promise.all([
    listRelatedAnimations(animation, doctor?.id ?? null),
    getAnimationOffers(animation),
    animation.canDownload ? packageDownloads(animation) : [],
  ]);
  // Link previews get the cover's 1200×630 rendition (made absolute by the head, lib/seo.ts).
  const cover = animation.coverImage;
  const ogImage = cover && hasRenditions(cover) ? ogImageUrl(cover) : null;
  // Named for the page cache (lib/page-cache.server.ts): a view of a kept page still counts.
  const headers = { "X-Animation-Id": animation.id };
  return data({
    animation,
    ogImage,
    // What anybody can play: the preview is cut to its first 10 seconds (the product's promise).
    previewSeconds: previewSecondsOf(animation.duration),
    playerWords: playerWords("en", {
      title: animation.title,
      isPreview: !animation.hasAccess || !animation.fullVideo,
      previewSeconds: previewSecondsOf(animation.duration),
    }),
    // Shared links name the animation's one address (its canonical URL), whichever path was visited.
    shareUrl: new URL(`/animations/${encodeURIComponent(animation.slug || animation.id)}`, siteOrigin(request)).href,
    related: { ...related, doctorName: doctor?.name ?? null },
    premium: hasGlobalAccess(access),
    offers,
    downloads,
  }, { headers });
}

export const headers: Route.HeadersFunction = ({ loaderHeaders, actionHeaders }) => {
  // A misuse report over the hourly limit says when to try again (the action's 429).
  const retryAfter = actionHeaders.get("Retry-After");
  if (!retryAfter) return loaderHeaders;
  const merged = new Headers(loaderHeaders);
  merged.set("Retry-After", retryAfter);
  return merged;
};

export async function action({ request, context, url }: Route.ActionArgs) {
  const formData = await readFormData(request);
  const submission = parseWithZod(formData, { schema: MisuseReportSchema });
  if (submission.status !== "success") return formError(submission);
  try {
    await createMisuseReport(submission.value, clientAddress(context));
  } catch (error) {
    // Past the limit: 429 with Retry-After, the form open with its answers and the message
    // saying when to try again and which mailbox to write to meanwhile.
    if (error instanceof ServiceError && error.status === 429) return formError(submission, error);
    logger.warn({ err: error }, "misuse report not stored");
    return redirectWithToast(url.pathname, { title: REPORT_FAILED, description: reportFailedText(), type: "error" });
  }
  return redirectWithToast(url.pathname, {
    title: "Report submitted successfully",
    description: "Thank you for reporting this issue. We will investigate it promptly.",
    type: "success",
  });
}

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) => {
  if (!loaderData) return [{ title: pageTitle(matches, "Animation Not Found") }];
  const { animation, ogImage, previewSeconds } = loaderData;
  const site = siteOf(matches);
  // /category/{main}/{sub}/{slug} shows the same animation: both name the one /animations/{slug}.
  const path = `/animations/${encodeURIComponent(animation.slug)}`;
  const category = animation.category;
  const thumbnail = ogImage ?? animation.coverImage;
  const review = animation.medicalReview;
  const preview = animation.previewVideo;
  // The VideoObject is what anybody can play here, the public preview: its contentUrl and its
  // length are the preview's, never the licensed full video's. No embedUrl: /embed/{id} plays
  // only for a licence holder on the licensed site (routes/public/embed.ts) and shows everybody
  // else a notice, so it is not an embeddable video for a search engine's purposes.
  const video =
    thumbnail && preview
      ? videoObject(site, {
          name: animation.title,
          description: animation.description,
          thumbnailUrl: thumbnail,
          uploadDate: animation.createdAt,
          durationSeconds: previewSeconds,
          contentUrl: preview,
        })
      : null;
  const trail = [
    { name: "Home", path: "/" },
    ...(category?.parent ? [{ name: category.parent.name, path: `/category/${encodeURIComponent(category.parent.slug)}` }] : []),
    ...(category
      ? [
          {
            name: category.name,
            path: category.parent
              ? `/category/${encodeURIComponent(category.parent.slug)}/${encodeURIComponent(category.slug)}`
              : `/category/${encodeURIComponent(category.slug || category.id)}`,
          },
        ]
      : []),
    { name: animation.title, path },
  ];
  return pageHead(site, {
    title: animation.title,
    description: animation.description,
    canonicalPath: path,
    ogType: "video.other",
    image: ogImage ? { url: ogImage, ...OG_SIZE, alt: `${animation.title}: cover image` } : null,
    video: preview ? { url: preview, type: preview.endsWith(".webm") ? "video/webm" : "video/mp4" } : null,
    // oEmbed discovery for licensees' tools: the endpoint answers only with `&licence={id}` of an
    // active licence, which the tool adds; without one it answers 404 (docs/seo.md, "Found and shared").
    links: [{ rel: "alternate", type: "application/json+oembed", href: `/api/oembed?url=${encodeURIComponent(absoluteUrl(site, path))}&format=json`, title: animation.title }],
    jsonLd: [
      {
        "@context": "https://schema.org",
        "@type": "MedicalWebPage",
        name: animation.title,
        description: describe(animation.description),
        url: absoluteUrl(site, path),
        about: { "@type": "MedicalProcedure", name: animation.title },
        // Only a current review is claimed (services/catalogue/medical-review.server.ts decides).
        ...(review
          ? {
              reviewedBy: personOnSite(site, {
                name: review.doctor.name,
                path: `/doctors/${encodeURIComponent(review.doctor.slug || review.doctor.id)}`,
                jobTitle: review.doctor.specialty,
              }),
              lastReviewed: review.reviewedAt.slice(0, 10),
            }
          : {}),
        ...(video ? { video } : {}),
      },
      breadcrumbList(site, trail),
    ],
  });
};

export default function AnimationDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { animation, related, premium, offers, downloads } = loaderData;
  const [packageLink, ...singleFiles] = downloads;
  const category = animation.category;
  const entitled = animation.hasAccess;
  const src = entitled ? (animation.fullVideo ?? animation.previewVideo) : animation.previewVideo;
  const isPreview = !entitled || !animation.fullVideo;
  const categoryHref = category ? `/category/${encodeURIComponent(category.slug || category.id)}` : null;
  const individualHref = `/individual-license?animation=${encodeURIComponent(animation.id)}`;
  const unlockOffers = <LicenceOffers offerPremium individualHref={individualHref} offers={offers} />;

  return (
    <main className="mx-auto max-w-7xl px-4 py-8">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-600">
        <ol className="flex flex-wrap items-center gap-1">
          <li>
            <Link to="/" className="hover:text-brand-700">
              Home
            </Link>
          </li>
          {category?.parent ? (
            <li>
              / <Link to={`/category/${encodeURIComponent(category.parent.slug)}`} className="hover:text-brand-700">{category.parent.name}</Link>
            </li>
          ) : null}
          {category ? (
            <li>
              /{" "}
              <Link
                to={category.parent ? `/category/${encodeURIComponent(category.parent.slug)}/${encodeURIComponent(category.slug)}` : categoryHref!}
                className="hover:text-brand-700"
              >
                {category.name}
              </Link>
            </li>
          ) : null}
          <li aria-current="page" className="text-slate-900">
            / {animation.title}
          </li>
        </ol>
      </nav>

      {/* On a phone the offers come right after the player and its title; from lg they sit beside
          it. There the player spans two rows, the first as tall as the offers, so the related
          lists start right under the offers and the page's other parts right under the title. */}
      <div className="mt-6 grid gap-8 lg:grid-cols-3 lg:grid-rows-[auto_auto_1fr]">
        <div className="flex flex-col gap-6 lg:col-span-2 lg:row-span-2 lg:row-start-1">
          <VideoPlayer
            videoId={animation.id}
            src={src}
            playback={animation.playback}
            poster={animation.coverImage}
            words={loaderData.playerWords}
            isPreview={isPreview}
            previewSeconds={loaderData.previewSeconds}
            tracks={animation.captions}
            offers={entitled ? undefined : unlockOffers}
          />
          {entitled || !src ? null : (
            // Without JavaScript nothing happens at the preview's end: this line says where the rest is.
            <p className="-mt-3 text-sm text-slate-600" data-testid="preview-note">
              {`The preview stops at ${formatDuration(loaderData.previewSeconds)}. The full animation comes with Premium or a license: `}
              <TextLink to="#unlock">see the offers</TextLink>.
            </p>
          )}
          <div className="flex flex-wrap items-start justify-between gap-3">
            <h1 className="text-3xl font-bold tracking-tight">{animation.title}</h1>
            <ShareControl url={loaderData.shareUrl} title={animation.title} text={shareText(animation.description)} />
          </div>
        </div>
        <div className="flex flex-col gap-4 lg:col-start-3 lg:row-start-1">
          {animation.canDownload ? (
            <Section card title="Your License">
              <p className="mt-2 text-sm text-slate-600">You hold download and commercial usage rights for this animation.</p>
              {packageLink ? (
                <>
                  <a
                    href={packageLink.href}
                    download
                    className="mt-4 inline-flex w-full items-center justify-center rounded-lg bg-emerald-700 px-4 py-2.5 text-sm font-semibold text-white hover:bg-emerald-800"
                  >
                    Download package (ZIP)
                  </a>
                  <details className="mt-3 text-sm">
                    <summary className="caret cursor-pointer list-none font-medium text-brand-700 [&::-webkit-details-marker]:hidden">Single files ({singleFiles.length})</summary>
                    <ul className="mt-2 flex flex-col gap-1.5">
                      {singleFiles.map((file) => (
                        <li key={file.href} className="flex items-baseline justify-between gap-3">
                          <a href={file.href} download className="min-w-0 break-words text-brand-700 underline-offset-2 hover:underline">
                            {file.label}
                          </a>
                          {file.bytes !== null ? <span className="shrink-0 text-xs text-slate-500 tabular-nums">{formatFileSize(file.bytes)}</span> : null}
                        </li>
                      ))}
                    </ul>
                  </details>
                </>
              ) : (
                <p className="mt-2 text-sm text-slate-600">The download package is being prepared from the animation's master; it appears here when it is ready.</p>
              )}
              <p className="mt-3 text-sm">
                <TextLink to="/my-animations">All your downloads</TextLink>
              </p>
            </Section>
          ) : null}
          {entitled && !animation.canDownload ? (
            <Section card title="Add Download Rights">
              <p className="mt-2 text-sm text-slate-600">
                {premium ? "Your premium membership includes streaming. " : ""}Add a license to download this animation and use it commercially.
              </p>
              <LicenceOffers individualHref={individualHref} offers={offers} />
            </Section>
          ) : null}
          {entitled ? null : (
            <Section card id="unlock" title="Unlock the Full Animation">
              <p className="mt-2 text-sm text-slate-600">
                {`You are watching a ${loaderData.previewSeconds}-second preview. Premium members stream every animation in full.`}
              </p>
              {unlockOffers}
            </Section>
          )}
        </div>
        <div className="flex flex-col gap-6 lg:col-span-2 lg:row-start-3">
          <div>
            <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm text-slate-600">
              <div className="flex gap-1">
                <dt>Duration:</dt>
                <dd data-testid="animation-duration">{formatDuration(animation.duration)}</dd>
              </div>
              {category && categoryHref ? (
                <div className="flex gap-1">
                  <dt>Category:</dt>
                  <dd>
                    <TextLink to={categoryHref}>{category.name}</TextLink>
                  </dd>
                </div>
              ) : null}
              <div className="flex gap-1">
                <dt>Views:</dt>
                <dd>{formatCount(animation.views)}</dd>
              </div>
              {animation.media.resolution ? (
                <div className="flex gap-1">
                  <dt>Resolution:</dt>
                  <dd data-testid="animation-resolution">{animation.media.resolution}</dd>
                </div>
              ) : null}
              {animation.media.formats ? (
                <div className="flex gap-1">
                  <dt>Download:</dt>
                  <dd data-testid="animation-formats">{animation.media.formats}</dd>
                </div>
              ) : null}
            </dl>
            {animation.medicalReview ? (
              <p className="mt-3 text-sm font-medium text-emerald-800" data-testid="medical-review">
                {formatMedicalReview(animation.medicalReview)}
              </p>
            ) : null}
          </div>
          <section aria-labelledby="about-animation">
            <h2 id="about-animation" className="sr-only">
              About this animation
            </h2>
            <AnimationDescription text={animation.description} />
          </section>
          {/* The doctors linked to the animation; only the review line above claims a review. */}
          {animation.doctors.length ? (
            <Section id="doctors" title="Doctors">
              <ul className="mt-3 grid gap-3 sm:grid-cols-2">
                {animation.doctors.map((doctor) => (
                  <li key={doctor.id}>
                    <LinkCard
                      to={`/doctors/${encodeURIComponent(doctor.slug || doctor.id)}`}
                      media={<DoctorAvatar doctor={doctor} />}
                      title={doctor.name}
                      description={doctor.specialty}
                    />
                  </li>
                ))}
              </ul>
            </Section>
          ) : null}
          {animation.transcript ? (
            <Section id="transcript" title="Transcript">
              <details className="mt-3 rounded-lg border border-slate-200 bg-white p-4">
                <summary className="cursor-pointer text-sm font-medium text-slate-800">
                  Show the transcript ({animation.transcript.label})
                </summary>
                <div lang={animation.transcript.language} className="mt-3 max-h-96 overflow-y-auto text-sm leading-relaxed whitespace-pre-line text-slate-700">
                  {animation.transcript.text}
                </div>
              </details>
            </Section>
          ) : null}
          <MisuseReport
            animationId={animation.id}
            animationTitle={animation.title}
            lastResult={actionData?.result}
          />
        </div>
        <aside className="flex flex-col gap-4 lg:col-start-3 lg:row-span-2 lg:row-start-2">
          <RelatedList id="more-in-category" title={category ? `More in ${category.name}` : "More animations"} animations={related.sameCategory} />
          {related.doctorName ? <RelatedList id="more-by-doctor" title={`More from ${related.doctorName}`} animations={related.byDoctor} /> : null}
        </aside>
      </div>
    </main>
  );
}

/**
 * The two licences that add download and commercial rights, and where to read about them.
 * `offerPremium` (viewers who only see the preview) puts Premium first, as the main offer. When
 * the category licence costs no more than this animation alone, it comes first and says so.
 */
function LicenceOffers({
  individualHref,
  offers,
  offerPremium = false,
}: {
  individualHref: string;
  offers: { price: number; category: CategoryOffer | null; cheaperCategory: CategoryOffer | null };
  offerPremium?: boolean;
}) {
  const { category, cheaperCategory } = offers;
  const categoryButton = category ? (
    <ButtonLink to={`/purchase/category/${encodeURIComponent(category.slug)}`} variant={cheaperCategory && !offerPremium ? "primary" : "secondary"}>
      {`${category.name} Category License ${formatYearlyPrice(category.price)}`}
    </ButtonLink>
  ) : null;
  return (
    <div className="mt-4 flex flex-col gap-2">
      {offerPremium ? <ButtonLink to="/premium">Get Premium Access</ButtonLink> : null}
      {cheaperCategory ? categoryButton : null}
      <ButtonLink to={individualHref} variant={offerPremium || cheaperCategory ? "secondary" : "primary"}>
        Individual License {formatYearlyPrice(offers.price)}
      </ButtonLink>
      {cheaperCategory ? null : categoryButton}
      {cheaperCategory ? <CheaperCategoryNote category={cheaperCategory} /> : null}
      <TextLink to="/category-license" className="text-center text-sm">About category licenses</TextLink>
    </div>
  );
}

/**
 * What a shared link says under its title: the first sentence of the description's first
 * paragraph (its headings are not sentences), at most 200 characters.
 */
function shareText(description: string) {
  const first = parseDescription(description).find((block) => block.kind === "paragraph")?.text ?? "";
  const plain = first.replace(/\s+/g, " ").trim();
  const sentence = plain.match(/^.+?[.!?](?=\s|$)/)?.[0] ?? plain;
  return sentence.length <= 200 ? sentence : `${sentence.slice(0, 199).trimEnd()}…`;
}

type CategoryOffer = { name: string; slug: string; price: number; animationCount: number };

/** "Animation Not Found" with a back button: history back with JavaScript (the page's script), home without. */
function AnimationNotFound() {
  return (
    <ErrorScreen
      title="Animation Not Found"
      message="The animation you are looking for does not exist or has been removed."
      action={
        <ButtonLink to="/" data-history-back>
          Go Back
        </ButtonLink>
      }
    />
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary statusHandlers={{ 404: () => <AnimationNotFound /> }} />;
}
