import { Panel } from "./admin-page.tsx";

/**
 * A message as it will be sent: subject, variables (for a template), the rendered HTML (already
 * sanitised by the server) and its plain text.
 */
export function EmailPreview({ preview }: { preview: { subject: string; html: string; text: string; variables?: string[] } }) {
  return (
    <Panel title="Preview">
      <dl className="grid gap-4 text-sm">
        <div>
          <dt className="font-medium text-slate-600">Subject</dt>
          <dd>{preview.subject}</dd>
        </div>
        {preview.variables ? (
          <div>
            <dt className="font-medium text-slate-600">Variables</dt>
            <dd className="font-mono text-xs">{preview.variables.length ? preview.variables.join(", ") : "None"}</dd>
          </div>
        ) : null}
        <div>
          <dt className="font-medium text-slate-600">HTML</dt>
          <dd className="prose prose-sm mt-1 max-w-none rounded-lg border border-slate-200 p-4" dangerouslySetInnerHTML={{ __html: preview.html }} />
        </div>
        <div>
          <dt className="font-medium text-slate-600">Plain text</dt>
          <dd>
            <pre className="mt-1 whitespace-pre-wrap rounded-lg bg-slate-50 p-4 text-xs">{preview.text}</pre>
          </dd>
        </div>
      </dl>
    </Panel>
  );
}
