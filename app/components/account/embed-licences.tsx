import { TextLink } from "~/components/ui/text-link.tsx";
import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useState } from "react";
import { Form } from "~/components/ui/form.tsx";
import { Button } from "~/components/ui/button.tsx";
import { ErrorList, Field, SelectField, TextareaField } from "~/components/ui/field.tsx";
import { Section } from "~/components/ui/section.tsx";
import { SubmitButton } from "~/components/ui/submit-button.tsx";
import { useHydrated } from "~/components/ui/use-hydrated.ts";
import { formatDate } from "~/lib/format.ts";
import { AddEmbedDomainSchema, MAX_EMBED_DOMAINS } from "~/validation/embed-domains.ts";

export type EmbedLicenceView = {
  id: string;
  type: "individual" | "category";
  endDate: string | Date | null;
  title: string;
  /** The practice it belongs to (null: the member's own). */
  practice: string | null;
  /** Whether this member may add and remove its sites (a practice's viewer may not). */
  managesSites: boolean;
  domains: { id: string; host: string }[];
  plays: { host: string; plays: number; animationTitle: string }[];
  totalPlays: number;
  choices: { id: string; title: string }[];
  example: { id: string; title: string } | null;
  snippet: string | null;
  embedUrl: string | null;
  oembedUrl: string | null;
};

/**
 * "Embed on your website": per individual or category licence, the sites allowed to frame it
 * (added and removed with plain forms), the copy-ready snippet (a category licence's for the
 * animation picked with a plain GET form), its live preview, the oEmbed address and the plays.
 * `library` is the page's own search, kept when an animation is picked.
 */
export function EmbedLicences({
  licences,
  library,
  lastResult,
}: {
  licences: EmbedLicenceView[];
  library: { q: string; page: number };
  lastResult?: { licenceId: string; result: SubmissionResult<string[]> } | null;
}) {
  if (!licences.length) return null;
  return (
    <Section
      id="embeds"
      title="Embed on your website"
      description={`Show your licensed animations on your clinic's website or patient portal: name up to ${MAX_EMBED_DOMAINS} sites per license, then paste the snippet into a page there. Embeds stop when the license ends.`}
      className="mt-10"
    >
      <ul className="mt-4 flex flex-col gap-6">
        {licences.map((licence) => (
          <EmbedLicence
            key={licence.id}
            licence={licence}
            library={library}
            lastResult={lastResult?.licenceId === licence.id ? lastResult.result : undefined}
          />
        ))}
      </ul>
    </Section>
  );
}

function EmbedLicence({
  licence,
  library,
  lastResult,
}: {
  licence: EmbedLicenceView;
  library: { q: string; page: number };
  lastResult?: SubmissionResult<string[]>;
}) {
  const headingId = `embed-${licence.id}-title`;
  return (
    <li id={`embed-${licence.id}`} aria-labelledby={headingId} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <h3 id={headingId} className="font-semibold">
        {licence.title}{" "}
        <span className="text-sm font-normal text-slate-600">
          ({licence.type === "individual" ? "individual license" : "category license"}
          {licence.practice ? ` of ${licence.practice}` : ""}
          {licence.endDate ? `, until ${formatDate(licence.endDate)}` : ""})
        </span>
      </h3>
      <p className="mt-1 text-sm">
        <TextLink to={`/licences/${licence.id}`}>
          Patient links and viewing<span className="sr-only">{` (${licence.title})`}</span>
        </TextLink>
      </p>
      <div className="mt-3 grid gap-6 lg:grid-cols-2">
        <div>
          <h4 className="text-sm font-semibold text-slate-700">Sites allowed to embed</h4>
          {licence.domains.length ? (
            <ul className="mt-2 flex flex-col gap-2">
              {licence.domains.map((domain) => (
                <li key={domain.id} className="flex items-center justify-between gap-3 rounded-lg bg-slate-50 px-3 py-1.5 text-sm">
                  <code>{domain.host}</code>
                  {licence.managesSites ? (
                    <Form method="post">
                      <input type="hidden" name="licenceId" value={licence.id} />
                      <input type="hidden" name="domainId" value={domain.id} />
                      <SubmitButton name="intent" value="remove-domain" variant="secondary" size="sm" pendingText="Removing...">
                        Remove<span className="sr-only"> {domain.host}</span>
                      </SubmitButton>
                    </Form>
                  ) : null}
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-2 text-sm text-slate-600">No site yet: the embed shows nowhere until you add one.</p>
          )}
          {!licence.managesSites ? (
            <p className="mt-3 text-sm text-slate-600">The practice's owners and managers add and remove its sites.</p>
          ) : licence.domains.length < MAX_EMBED_DOMAINS ? (
            // Keyed by the sites' count: after an add the form starts empty again (with JavaScript the
            // redirect back keeps the page mounted, and the field its typed value).
            <AddDomainForm key={licence.domains.length} licenceId={licence.id} lastResult={lastResult} />
          ) : (
            <p className="mt-3 text-sm text-slate-600">This license names {MAX_EMBED_DOMAINS} sites, the most it can.</p>
          )}
          <h4 className="mt-4 text-sm font-semibold text-slate-700">Plays</h4>
          {licence.plays.length ? (
            <ul className="mt-1 text-sm text-slate-700" aria-label={`Plays of ${licence.title}`}>
              {licence.plays.map((p) => (
                <li key={`${p.animationTitle}|${p.host}`}>
                  <code>{p.host}</code>: {p.plays === 1 ? "1 play" : `${p.plays} plays`}
                  {licence.type === "category" ? <span className="text-slate-500"> ({p.animationTitle})</span> : null}
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-1 text-sm text-slate-600">0 plays so far.</p>
          )}
        </div>
        {licence.snippet ? (
          <div className="min-w-0">
            {licence.choices.length > 1 ? <ChooseAnimation licence={licence} library={library} /> : null}
            <Snippet key={licence.snippet} licence={licence} snippet={licence.snippet} />
            {/* The snippet itself, so the preview is exactly what a clinic's page will show. Folded:
                the page stays light with several licences, and the player's own h1 does not
                break this page's heading order until it is asked for. */}
            <details className="mt-4">
              <summary className="cursor-pointer text-sm font-semibold text-slate-700">Preview</summary>
              <div className="mt-2" dangerouslySetInnerHTML={{ __html: licence.snippet }} />
            </details>
            <p className="mt-3 text-sm break-all">
              oEmbed: <code>{licence.oembedUrl}</code>
            </p>
            <p className="mt-1 text-sm break-all">
              Player: <code>{licence.embedUrl}</code>
            </p>
          </div>
        ) : null}
      </div>
    </li>
  );
}

/** A category licence's animations: a plain GET form, so picking one works without JavaScript. */
function ChooseAnimation({ licence, library }: { licence: EmbedLicenceView; library: { q: string; page: number } }) {
  return (
    <Form method="get" action={`/my-animations#embed-${licence.id}`} preventScrollReset className="mb-3 flex flex-wrap items-end gap-2">
      {library.q ? <input type="hidden" name="q" value={library.q} /> : null}
      {library.page > 1 ? <input type="hidden" name="page" value={library.page} /> : null}
      <input type="hidden" name="licence" value={licence.id} />
      <SelectField
        key={licence.example?.id}
        label="Animation to embed"
        id={`embed-${licence.id}-animation`}
        name="animation"
        defaultValue={licence.example?.id}
        options={licence.choices.map((a) => ({ value: a.id, label: a.title }))}
        className="min-w-0 grow basis-60"
      />
      <Button type="submit" variant="secondary">
        Show its snippet
      </Button>
    </Form>
  );
}

/**
 * The read-only snippet (select and copy it, with or without JavaScript) and, where the browser
 * offers the Clipboard API, a Copy button whose outcome a screen reader hears from the status.
 */
function Snippet({ licence, snippet }: { licence: EmbedLicenceView; snippet: string }) {
  const canCopy = useHydrated() && Boolean(navigator.clipboard?.writeText);
  const [status, setStatus] = useState("");
  const copy = () =>
    navigator.clipboard.writeText(snippet).then(
      () => setStatus("Copied"),
      () => setStatus("Could not copy: select the snippet and copy it"),
    );
  return (
    <>
      <TextareaField
        label="Embed snippet"
        hint={licence.type === "category" ? `Shows ${licence.example?.title}. Copy it into your page's HTML.` : "Copy it into your page's HTML."}
        readOnly
        rows={5}
        value={snippet}
        // The wrapper takes the class: only the code is monospace, not the hint under it.
        className="[&_textarea]:font-mono"
        id={`embed-${licence.id}-snippet`}
      />
      <div className="mt-2 flex min-h-8 flex-wrap items-center gap-3">
        {canCopy ? (
          <Button variant="secondary" size="sm" onClick={copy}>
            Copy snippet
          </Button>
        ) : null}
        <p role="status" className="text-sm text-slate-700">
          {status}
        </p>
      </div>
    </>
  );
}

function AddDomainForm({ licenceId, lastResult }: { licenceId: string; lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useForm({
    id: `embed-domain-${licenceId}`,
    lastResult,
    constraint: getZodConstraint(AddEmbedDomainSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AddEmbedDomainSchema }),
  });
  return (
    <Form method="post" className="mt-3 flex flex-wrap items-end gap-2" {...getFormProps(form)}>
      <input type="hidden" name="licenceId" value={licenceId} />
      <Field
        label="Add a site"
        hint="A domain like clinic.example, or *.clinic.example for all its subdomains"
        className="min-w-60 flex-1"
        errors={fields.host.errors}
        {...getInputProps(fields.host, { type: "text" })}
      />
      <ErrorList id={form.errorId} errors={form.errors} />
      <SubmitButton name="intent" value="add-domain" variant="secondary" pendingText="Adding...">
        Add domain
      </SubmitButton>
    </Form>
  );
}
