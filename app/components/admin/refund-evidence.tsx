import { Panel } from "~/components/admin/admin-page.tsx";
import { Badge, DataTable } from "~/components/admin/data-table.tsx";
import { formatDate, formatDateTime, formatFileSize, pluralize } from "~/lib/format.ts";
import type { RefundCase } from "~/services/commerce/refund-evidence.server.ts";

// What a refund would take back, shown beside the request on /admin/refunds/{id}: every figure
// is read from the licence's own rows (refund-evidence.server.ts); nothing is shown that the
// data does not hold.

type Evidence = RefundCase["evidence"];

export function RefundEvidence({ evidence }: { evidence: Evidence }) {
  const { window } = evidence;
  return (
    <Panel title="What the refund takes back">
      <div className="space-y-5 text-sm">
        <section aria-labelledby="refund-window">
          <h3 id="refund-window" className="font-semibold">
            Refund window
          </h3>
          <p className="mt-1">
            Paid {formatDate(window.paidAt)}; the {window.days}-day refund window {window.openNow ? "ends" : "ended"} {formatDate(window.endsAt)}. The request
            came on {formatDate(window.requestedAt)}, <strong>{window.requestedWithin ? "inside the window" : "after the window had closed"}</strong>.
          </p>
        </section>
        {evidence.licence ? <LicenceEvidence evidence={{ ...evidence, licence: evidence.licence }} /> : <p>This payment bought no subscription or license.</p>}
      </div>
    </Panel>
  );
}

type WithLicence = Extract<Evidence, { downloads: unknown }>;

function LicenceEvidence({ evidence: { licence, downloads, plays, embeds, patientLinks } }: { evidence: WithLicence }) {
  return (
    <>
      <section aria-labelledby="refund-licence">
        <h3 id="refund-licence" className="font-semibold">
          License
        </h3>
        <p className="mt-1">
          {licence.label} · {licence.status}
          {licence.startDate ? ` · ${formatDate(licence.startDate)} to ${formatDate(licence.endDate)}` : null}
          {licence.practiceName ? ` · for the practice ${licence.practiceName} (${pluralize(licence.seats, "seat")})` : null}
        </p>
      </section>

      <section aria-labelledby="refund-downloads" className="space-y-2">
        <h3 id="refund-downloads" className="font-semibold">
          Downloads since the payment
        </h3>
        {downloads.files > 0 ? (
          <p>
            <strong>
              {pluralize(downloads.files, "file")} downloaded ({pluralize(downloads.downloads, "download")})
            </strong>
            : the buyer keeps them whatever the decision.
            {downloads.files > downloads.listed.length ? ` The ${downloads.listed.length} latest are listed.` : null}
          </p>
        ) : null}
        <DataTable
          caption="Files downloaded under this license since the payment"
          rows={downloads.listed}
          rowKey={(row) => `${row.animationTitle}|${row.file}`}
          empty="Nothing downloaded under this license since the payment."
          columns={[
            { header: "Last downloaded", cell: (row) => formatDateTime(row.lastAt) },
            { header: "Animation", cell: (row) => row.animationTitle },
            { header: "File", cell: (row) => (row.file === "package" ? "Whole package (ZIP)" : row.file) },
            { header: "Times", cell: (row) => row.times, className: "text-right" },
            {
              header: "Sent",
              cell: (row) => (
                <>
                  {formatFileSize(row.bytes)} {row.complete ? null : <Badge tone="yellow">partial</Badge>}
                </>
              ),
              className: "text-right",
            },
          ]}
        />
      </section>

      <section aria-labelledby="refund-plays">
        <h3 id="refund-plays" className="font-semibold">
          Plays since {formatDate(`${plays.fromDay}T00:00:00Z`)}
        </h3>
        <p className="mt-1">
          {pluralize(plays.total, "play")}: {plays.site} on the clinic&apos;s sites (embeds), {plays.link} through patient links. The member&apos;s own viewing
          in the library is not counted per licence.
        </p>
      </section>

      <section aria-labelledby="refund-embeds">
        <h3 id="refund-embeds" className="font-semibold">
          Embeds
        </h3>
        {embeds.sites.length ? (
          <ul className="mt-1 list-disc pl-5">
            {embeds.sites.map((site) => (
              <li key={site.host}>
                {site.host === "direct" ? "Opened directly (no site named)" : site.host}: {pluralize(site.plays, "play")} in all
                {site.allowed ? null : " (not on the license's list now)"}
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-1">No site is set up to embed this license, and no embed has played.</p>
        )}
      </section>

      <section aria-labelledby="refund-links">
        <h3 id="refund-links" className="font-semibold">
          Patient links since the payment
        </h3>
        <p className="mt-1">
          {patientLinks.created
            ? `${pluralize(patientLinks.created, "link")} created, ${patientLinks.sent} e-mailed, ${patientLinks.opened} opened by a patient, ${patientLinks.completed} watched to the end.`
            : "No patient link created."}
        </p>
      </section>
    </>
  );
}
