import { useEffect } from "react";
import { useRevalidator } from "react-router";
import { Form } from "~/components/ui/form.tsx";
import { Link } from "~/components/ui/link.tsx";
import { Panel } from "~/components/admin/admin-page.tsx";
import { Badge } from "~/components/admin/data-table.tsx";
import { SubmitButton } from "~/components/ui/submit-button.tsx";
import { formatDateTime } from "~/lib/format.ts";

type Step = { step: string; label: string; status: "waiting" | "running" | "done" | "failed"; percent: number; error?: string };
type Job = { status: "queued" | "running" | "done" | "failed"; error: string | null; attempts: number; updatedAt: Date | string; progress: Step[] };
type Rendition = {
  kind: string;
  file: string;
  width: number | null;
  height: number | null;
  bitrate: number | null;
  codec: string;
  bytes: number;
  duration: number | null;
};

const TONES = { queued: "yellow", waiting: "grey", running: "blue", done: "green", failed: "red" } as const;
const KIND_LABELS: Record<string, string> = {
  hls: "HLS rung",
  progressive: "Progressive MP4",
  preview: "Preview MP4",
  "preview-hls": "Preview HLS",
  download: "Download",
  storyboard: "Storyboard",
};

/** Refreshes the page's data every few seconds while a transcode is queued or running (with JavaScript; without, a link does). */
function useLiveWhile(active: boolean) {
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (state === "idle") void revalidate();
    }, 3000);
    return () => clearInterval(timer);
  }, [active, revalidate, state]);
}

function formatBytes(bytes: number) {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/**
 * The media pipeline on the admin animation page: the newest transcode's steps with their
 * progress and errors, Retry for a failed one, and the renditions the animation plays now.
 */
export function MediaPanel({ hasVideo, job, renditions }: { hasVideo: boolean; job: Job | null; renditions: Rendition[] }) {
  const active = job?.status === "queued" || job?.status === "running";
  useLiveWhile(active);
  return (
    <Panel title="Media">
      <div className="flex flex-wrap items-center gap-3 text-sm" data-testid="media-status">
        {renditions.length ? <Badge tone="green">Renditions ready</Badge> : <Badge>{hasVideo ? "No renditions yet" : "No full video"}</Badge>}
        {job ? <Badge tone={TONES[job.status]}>Transcode {job.status}</Badge> : null}
        {job ? (
          <span className="text-slate-600">
            Last update {formatDateTime(job.updatedAt)} · attempts {job.attempts}
          </span>
        ) : null}
        {active ? (
          <Link to="." className="font-medium text-brand-700 hover:underline" preventScrollReset>
            Refresh
          </Link>
        ) : null}
        {job?.status === "failed" ? (
          <Form method="post">
            <SubmitButton name="intent" value="retry-media" variant="secondary" size="sm" pendingText="Queuing...">
              Retry
            </SubmitButton>
          </Form>
        ) : null}
      </div>
      {job?.status === "failed" && job.error ? <p className="mt-2 text-sm text-red-700">{job.error}</p> : null}
      {job && job.progress.length && job.status !== "done" ? (
        // A phone's column is narrower than the tables: they scroll in their own box (reachable
        // by keyboard), not the page.
        <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Transcode steps">
          <table className="mt-3 w-full max-w-2xl text-left text-sm">
            <caption className="sr-only">Transcode steps</caption>
            <thead className="text-slate-600">
              <tr>
                <th className="py-1 pr-3 font-medium">Rendition</th>
                <th className="py-1 pr-3 font-medium">Status</th>
                <th className="py-1 font-medium">Progress</th>
              </tr>
            </thead>
            <tbody>
              {job.progress.map((step) => (
                <tr key={step.step} className="border-t border-slate-100 align-top">
                  <td className="py-1 pr-3">{step.label}</td>
                  <td className="py-1 pr-3">
                    <Badge tone={TONES[step.status]}>{step.status}</Badge>
                    {step.error ? <span className="mt-1 block text-xs text-red-700">{step.error}</span> : null}
                  </td>
                  <td className="py-1">
                    <progress max={100} value={step.percent} aria-label={`${step.label}: ${step.percent}%`} className="mr-2 align-middle" />
                    {step.percent}%
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {renditions.length ? (
        <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Renditions playing now">
          <table className="mt-3 w-full max-w-2xl text-left text-sm" data-testid="renditions">
            <caption className="py-1 text-left font-medium">Playing now</caption>
            <thead className="text-slate-600">
              <tr>
                <th className="py-1 pr-3 font-medium">Kind</th>
                <th className="py-1 pr-3 font-medium">Size</th>
                <th className="py-1 pr-3 font-medium">Bitrate</th>
                <th className="py-1 pr-3 font-medium">Codec</th>
                <th className="py-1 font-medium">Bytes</th>
              </tr>
            </thead>
            <tbody>
              {renditions.map((r) => (
                <tr key={r.file} className="border-t border-slate-100">
                  <td className="py-1 pr-3">
                    {KIND_LABELS[r.kind] ?? r.kind}
                    {r.kind === "download" ? ` ${r.file.split(".").pop()!.toUpperCase()}` : ""}
                  </td>
                  <td className="py-1 pr-3">{r.width && r.height ? `${r.width}×${r.height}` : "—"}</td>
                  <td className="py-1 pr-3">{r.bitrate ? `${Math.round(r.bitrate / 1000)} kbit/s` : "—"}</td>
                  <td className="py-1 pr-3 break-all">{r.codec}</td>
                  <td className="py-1">{formatBytes(r.bytes)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </Panel>
  );
}
