import { data } from "react-router";
import { ServiceError } from "~/lib/errors.server.ts";
import { formatLongDate } from "~/lib/format.ts";
import type { PageHandle } from "~/lib/page-handle.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { getPrintablePatientLink } from "~/services/licensing/patient-links.server.ts";
import type { Route } from "./+types/patient-link-card";

// /licences/{id}/patient-links/{linkId}/card: a patient link as a card to print and hand over at
// the desk: the clinic's name, what to watch, the QR code, the address to type, until when.
// A bare document (no site header or footer), sized for A4 or Letter, that prints as it shows.

export const handle: PageHandle = { hydrate: false, document: "bare" };

export const meta: Route.MetaFunction = () => [{ title: "Patient link card | Medanim" }, { name: "robots", content: "noindex" }];

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  try {
    const card = await getPrintablePatientLink(user, params.id, params.linkId);
    return data({ lang: "en", ...card, expiresOn: formatLongDate(card.expiresAt) }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (error instanceof ServiceError) throw new Response(error.message, { status: error.status });
    throw error;
  }
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export default function PatientLinkCard({ loaderData: card }: Route.ComponentProps) {
  return (
    <main className="mx-auto max-w-xl p-8 text-slate-900">
      {card.logo ? <img src={card.logo} alt="" className="mb-2 h-12 w-auto max-w-48 object-contain" /> : null}
      <p className="text-sm font-semibold tracking-wide text-slate-600 uppercase">{card.clinicName}</p>
      <h1 className="mt-2 text-2xl font-semibold">{card.titles.length === 1 ? "A video to watch before your visit" : "Videos to watch before your visit"}</h1>
      <ul className="mt-3 list-disc pl-6">
        {card.titles.map((title) => (
          <li key={title}>{title}</li>
        ))}
      </ul>
      {card.note ? <p className="mt-4 whitespace-pre-line">{card.note}</p> : null}
      <div
        className="mx-auto mt-6 h-64 w-64 [&>svg]:h-full [&>svg]:w-full"
        role="img"
        aria-label="QR code of the link"
        data-testid="patient-link-card-qr"
        // Markup the qrcode library drew from our own URL: paths and rects only.
        dangerouslySetInnerHTML={{ __html: card.qr }}
      />
      <p className="mt-4 text-center text-sm">Scan the code with your phone's camera, or type:</p>
      <p className="mt-1 text-center font-mono text-xs break-all">{card.url}</p>
      <p className="mt-4 text-center text-sm text-slate-700">
        {card.revoked ? "This link was revoked and no longer works." : `No account needed. The link works until ${card.expiresOn}.`}
      </p>
    </main>
  );
}
