import { z } from "zod";
import { ErrorScreen, GeneralErrorBoundary } from "~/components/error-boundary.tsx";
import { asRouteError } from "~/lib/errors.server.ts";
import { formatDate, pluralize } from "~/lib/format.ts";
import { parseParams } from "~/lib/params.server.ts";
import { formatMedicalReview } from "~/services/catalogue/medical-review-claim.ts";
import { LICENCE_NOT_FOUND, LICENCE_STATE_REASON, licenceFacts, verifyLicence } from "~/services/licensing/documents.server.ts";
import { UUID_RE } from "~/validation/account.ts";
import { pageHead, siteOf } from "~/lib/seo.ts";
import { LOAD_AS_DOCUMENT, STATIC_PAGE } from "~/lib/page-handle.ts";
import type { Route } from "./+types/licence-verify";

// Reached from a certificate's link or QR code: text only, so it loads no React (decision 025).
export const handle = STATIC_PAGE;
export const clientMiddleware = LOAD_AS_DOCUMENT;

const VerifyParams = z.object({ id: z.string().regex(UUID_RE) });

export const meta: Route.MetaFunction = ({ params, matches }) =>
  pageHead(siteOf(matches), {
    title: "License verification",
    description: "Check that a Medanim license certificate is genuine: who holds it, what it covers and until when.",
    canonicalPath: `/licences/${encodeURIComponent(params.id)}/verify`,
    robots: "noindex",
  });

/**
 * Public: anyone handed a certificate can check it, signed in or not. The answer is about today,
 * so it is never cached; only the licensee's name leaves the server (no e-mail, no user id).
 */
export async function loader({ params }: Route.LoaderArgs) {
  const { id } = parseParams(params, VerifyParams, LICENCE_NOT_FOUND);
  const licence = await verifyLicence(id).catch(asRouteError);
  return {
    licence: {
      // The same rows as the certificate (one list of facts for both), and every animation covered.
      facts: licenceFacts(licence),
      category: licence.type === "category",
      animations: licence.animations,
      valid: licence.state === "valid",
      reason: licence.state === "valid" ? null : LICENCE_STATE_REASON[licence.state],
      medicalReview: licence.medicalReview ? formatMedicalReview(licence.medicalReview) : null,
    },
    checkedAt: new Date().toISOString(),
  };
}

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store" });

export default function LicenceVerify({ loaderData: { licence, checkedAt } }: Route.ComponentProps) {
  return (
    <main className="mx-auto max-w-xl px-4 py-12">
      <div className="rounded-2xl border border-slate-200 bg-white p-8 shadow-sm">
        <div className={`rounded-xl p-4 ${licence.valid ? "bg-green-50 text-green-900" : "bg-red-50 text-red-900"}`} role="status">
          <h1 className="text-2xl font-bold">{licence.valid ? "Valid license" : "This license is not valid"}</h1>
          <p className="mt-1 text-sm">
            {licence.valid ? `Checked on ${formatDate(checkedAt)}.` : licence.reason}
          </p>
        </div>
        <dl className="mt-6 grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[9rem_1fr]">
          {licence.facts.map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="text-slate-600">{label}</dt>
              <dd className="break-words whitespace-pre-line">
                {value}
                {label === "Covers" && licence.medicalReview ? (
                  <p className="mt-1 text-emerald-800" data-testid="medical-review">
                    {licence.medicalReview}
                  </p>
                ) : null}
              </dd>
            </div>
          ))}
        </dl>
        {licence.category ? (
          <section aria-labelledby="covered-title" className="mt-6">
            <h2 id="covered-title" className="text-base font-semibold">
              Animations covered ({pluralize(licence.animations.total, "animation")})
            </h2>
            <ul className="mt-2 list-disc pl-5 text-sm" data-testid="covered-animations">
              {licence.animations.titles.map((title) => (
                <li key={title}>{title}</li>
              ))}
            </ul>
          </section>
        ) : null}
      </div>
    </main>
  );
}

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        404: () => <ErrorScreen title="License not found" message="No license has this id. Check the verification link on the certificate." />,
      }}
    />
  );
}
