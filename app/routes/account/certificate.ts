import { z } from "zod";
import { asRouteError } from "~/lib/errors.server.ts";
import { parseParams } from "~/lib/params.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { certificateFilename, pdfHeaders, renderCertificatePdf } from "~/services/licensing/documents-pdf.server.ts";
import { getCertificate, LICENCE_NOT_FOUND } from "~/services/licensing/documents.server.ts";
import { UUID_RE } from "~/validation/account.ts";
import type { Route } from "./+types/certificate";

const CertificateParams = z.object({ id: z.string().regex(UUID_RE) });

/**
 * The licence certificate as a PDF file: the licensee's own individual or category licence;
 * `?animation={id}` names that animation of it (My Animations' "Certificate for …" links).
 */
export async function loader({ request, params, url }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const { id } = parseParams(params, CertificateParams, LICENCE_NOT_FOUND);
  const animationId = url.searchParams.get("animation") ?? undefined;
  const certificate = await getCertificate(user, id, { animationId }).catch(asRouteError);
  const bytes = await renderCertificatePdf(certificate);
  return new Response(bytes, { headers: pdfHeaders(certificateFilename(certificate), bytes.byteLength) });
}
