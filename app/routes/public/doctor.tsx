import { Link } from "~/components/ui/link.tsx";
import { CardGrid, animationHref } from "~/components/catalogue/animation-card.tsx";
import { SummaryCard } from "~/components/catalogue/summary-card.tsx";
import { DoctorAbout } from "~/components/catalogue/doctor-about.tsx";
import { DoctorAvatar } from "~/components/catalogue/doctor-avatar.tsx";
import { ErrorScreen, GeneralErrorBoundary } from "~/components/error-boundary.tsx";
import { ButtonLink, buttonClass } from "~/components/ui/button.tsx";
import { asRouteError } from "~/lib/errors.server.ts";
import { EmptyState } from "~/components/ui/empty-state.tsx";
import { Section } from "~/components/ui/section.tsx";
import { instagramLink } from "~/lib/format.ts";
import { hasRenditions, renditionUrl } from "~/lib/image-renditions.ts";
import { pageTitle } from "~/lib/meta.ts";
import { pageHead, personOnSite, siteOf } from "~/lib/seo.ts";
import { getDoctor } from "~/services/catalogue/doctors.server.ts";
import type { Route } from "./+types/doctor";
import { LOAD_AS_DOCUMENT, STATIC_PAGE } from "~/lib/page-handle.ts";

// No behaviour of its own: the page does not hydrate (decision 025); the static page script
// adds the header's, the toast's and the cards' (lib/page-handle.ts).
export const handle = STATIC_PAGE;
export const clientMiddleware = LOAD_AS_DOCUMENT;

// /doctors/{slug or id}: the public doctor profile.

export async function loader({ params }: Route.LoaderArgs) {
  return { doctor: await getDoctor(params.slugOrId).catch(asRouteError) };
}

/** The profile photo's square rendition that link previews show (the avatar's own widths stop below it). */
const PHOTO_PREVIEW_WIDTH = 640;

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) => {
  if (!loaderData) return [{ title: pageTitle(matches, "Doctor Not Found") }];
  const { doctor } = loaderData;
  const site = siteOf(matches);
  const path = `/doctors/${encodeURIComponent(doctor.slug || doctor.id)}`;
  const photo = doctor.photo && hasRenditions(doctor.photo) ? renditionUrl(doctor.photo, "1x1", PHOTO_PREVIEW_WIDTH, "jpg") : null;
  return pageHead(site, {
    title: doctor.name,
    description: `${doctor.name}, ${doctor.specialty}.${doctor.description ? ` ${doctor.description}` : ""}`,
    canonicalPath: path,
    ogType: "profile",
    image: photo ? { url: photo, width: PHOTO_PREVIEW_WIDTH, height: PHOTO_PREVIEW_WIDTH, alt: doctor.name } : null,
    jsonLd: [
      {
        "@context": "https://schema.org",
        ...personOnSite(site, { name: doctor.name, path, jobTitle: doctor.specialty, description: doctor.description, image: doctor.photo }),
      },
    ],
  });
};

/** Only web links become buttons: an admin typo must never produce a javascript: link. */
function safeWebsite(value: string | null) {
  if (!value) return null;
  try {
    const url = new URL(/^https?:\/\//i.test(value) ? value : `https://${value}`);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

export default function DoctorProfile({ loaderData: { doctor } }: Route.ComponentProps) {
  const website = safeWebsite(doctor.website);
  const instagram = doctor.instagram?.trim() ? instagramLink(doctor.instagram) : null;
  return (
    <main className="mx-auto max-w-7xl px-4 py-10">
      <Link to="/" className={buttonClass({ variant: "ghost", size: "sm" })}>
        ← Back to Library
      </Link>
      <section className="mt-6 flex flex-col gap-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm md:flex-row">
        <DoctorAvatar doctor={doctor} size="lg" alt={doctor.name} />
        <div className="flex flex-1 flex-col gap-3">
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="text-3xl font-bold tracking-tight">{doctor.name}</h1>
            <span className="rounded-full bg-brand-100 px-3 py-1 text-sm font-semibold text-brand-700">{doctor.specialty}</span>
          </div>
          <div className="flex flex-wrap gap-2">
            {website ? (
              <a href={website} target="_blank" rel="noopener noreferrer" className={buttonClass({ variant: "secondary", size: "sm" })}>
                Website
              </a>
            ) : null}
            {instagram ? (
              <a href={instagram.href} target="_blank" rel="noopener noreferrer" className={buttonClass({ variant: "secondary", size: "sm" })}>
                Instagram {instagram.label}
              </a>
            ) : null}
          </div>
          {doctor.description ? (
            <div>
              <h2 className="text-lg font-semibold">About</h2>
              <DoctorAbout text={doctor.description} />
            </div>
          ) : null}
        </div>
      </section>

      <Section id="verified-animations" title="Verified Animations" className="mt-10">
        <div className="mt-6">
          {doctor.verifiedAnimations.length === 0 ? (
            <EmptyState title="No verified animations found." />
          ) : (
            <CardGrid>
              {doctor.verifiedAnimations.map((animation) => (
                <SummaryCard key={animation.id} animation={animation} href={animationHref(animation)} linkLabel="Watch" />
              ))}
            </CardGrid>
          )}
        </div>
      </Section>
    </main>
  );
}

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        404: () => (
          <ErrorScreen
            title="Doctor Not Found"
            message="The doctor you are looking for does not exist or is no longer listed."
            action={<ButtonLink to="/">Back to Home</ButtonLink>}
          />
        ),
      }}
    />
  );
}
