import { useId } from "react";
import { Section } from "~/components/ui/section.tsx";
import { formatDate, formatDateTime } from "~/lib/format.ts";
import type { AnalyticsCountsData, AnalyticsSourceRow, LicenceAnalyticsData } from "~/validation/playback-analytics.ts";

// What the clinic learns (issue 46): a licence's plays per day as an SVG drawn by the server (no
// script), and per site and patient link a table of the same numbers the CSV and
// GET /api/licences/{id}/analytics give.

const CHART_HEIGHT = 120;
const BAR_STEP = 12;
const BAR_WIDTH = 9;

const percent = (part: number, whole: number) => (whole ? `${Math.round((part / whole) * 100)} %` : "–");
const watched = (c: AnalyticsCountsData) => (c.plays ? `${Math.round(c.averageWatched * 100)} %` : "–");
const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

export function LicenceAnalytics({ data, csvHref }: { data: LicenceAnalyticsData; csvHref: string }) {
  const id = useId();
  const { totals } = data;
  return (
    <Section
      id={`${id}-analytics`}
      title="Plays and viewers"
      description={`The last ${data.days} days (${formatDate(data.from)} to ${formatDate(data.to)}, UTC). A viewer is counted once a day per site or link, without knowing who they are.`}
      action={
        <a href={csvHref} download className="text-sm font-medium text-sky-700 underline underline-offset-2 hover:text-sky-900">
          Download CSV
        </a>
      }
      card
    >
      <dl className="mt-4 grid grid-cols-2 gap-4 sm:grid-cols-4">
        <Figure label="Plays" value={totals.plays.toLocaleString("en-US")} />
        <Figure label="Unique viewers" value={totals.viewers.toLocaleString("en-US")} />
        <Figure label="Average watched" value={watched(totals)} />
        <Figure label="Watched to the end" value={percent(totals.reached100, totals.plays)} />
      </dl>
      <PlaysChart series={data.series} labelId={`${id}-chart`} />
      <SourcesTable sources={data.sources} />
      <p className="mt-3 text-xs text-slate-500">
        {data.updatedAt ? `Daily numbers last updated ${formatDateTime(data.updatedAt)}; today's are counted live.` : "Today's numbers are counted live."}
      </p>
    </Section>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-lg bg-slate-50 px-3 py-2">
      <dt className="text-xs font-medium text-slate-600">{label}</dt>
      <dd className="text-xl font-semibold text-slate-900">{value}</dd>
    </div>
  );
}

/** Bars of plays per day; its numbers are also in the table under it, for screen readers and print. */
function PlaysChart({ series, labelId }: { series: LicenceAnalyticsData["series"]; labelId: string }) {
  const most = Math.max(0, ...series.map((d) => d.plays));
  const max = Math.max(1, most);
  const width = series.length * BAR_STEP;
  const total = series.reduce((sum, d) => sum + d.plays, 0);
  const busiest = series.reduce((best, d) => (d.plays > best.plays ? d : best), series[0] ?? { day: "", plays: 0, viewers: 0 });
  const summary = total
    ? `${plural(total, "play", "plays")} from ${formatDate(series[0]?.day)} to ${formatDate(series.at(-1)?.day)}; most on ${formatDate(busiest.day)} (${busiest.plays}).`
    : `No plays from ${formatDate(series[0]?.day)} to ${formatDate(series.at(-1)?.day)}.`;
  return (
    <figure className="mt-6">
      <svg
        role="img"
        aria-labelledby={`${labelId}-title ${labelId}-desc`}
        viewBox={`0 0 ${width} ${CHART_HEIGHT + 1}`}
        preserveAspectRatio="none"
        className="h-32 w-full text-sky-600"
      >
        <title id={`${labelId}-title`}>Plays per day</title>
        <desc id={`${labelId}-desc`}>{summary}</desc>
        <line x1={0} x2={width} y1={CHART_HEIGHT + 0.5} y2={CHART_HEIGHT + 0.5} className="stroke-slate-300" strokeWidth={1} />
        {series.map((d, i) => {
          const h = Math.round((d.plays / max) * CHART_HEIGHT);
          return (
            <rect key={d.day} x={i * BAR_STEP + (BAR_STEP - BAR_WIDTH) / 2} y={CHART_HEIGHT - h} width={BAR_WIDTH} height={h} className="fill-current" rx={1}>
              <title>{`${formatDate(d.day)}: ${plural(d.plays, "play", "plays")}`}</title>
            </rect>
          );
        })}
      </svg>
      <figcaption className="mt-1 flex justify-between text-xs text-slate-500" aria-hidden="true">
        <span>{formatDate(series[0]?.day)}</span>
        <span>most in a day: {most}</span>
        <span>{formatDate(series.at(-1)?.day)}</span>
      </figcaption>
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer text-slate-600">Plays per day as a table</summary>
        <div role="region" aria-label="Plays per day" tabIndex={0} className="mt-2 max-h-64 overflow-auto">
          <table className="min-w-full text-left text-sm">
            <thead className="text-xs text-slate-600">
              <tr>
                <th scope="col" className="py-1 pr-4">
                  Day
                </th>
                <th scope="col" className="py-1 pr-4 text-right">
                  Plays
                </th>
                <th scope="col" className="py-1 text-right">
                  Unique viewers
                </th>
              </tr>
            </thead>
            <tbody>
              {series.map((d) => (
                <tr key={d.day} className="border-t border-slate-100">
                  <th scope="row" className="py-1 pr-4 font-normal">
                    {formatDate(d.day)}
                  </th>
                  <td className="py-1 pr-4 text-right tabular-nums">{d.plays}</td>
                  <td className="py-1 text-right tabular-nums">{d.viewers}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}

function SourcesTable({ sources }: { sources: AnalyticsSourceRow[] }) {
  if (!sources.length) {
    return <p className="mt-6 text-sm text-slate-600">No plays yet on your sites or patient links.</p>;
  }
  const hasLinks = sources.some((s) => s.kind === "link");
  return (
    <>
      <div role="region" aria-label="Plays by site and patient link" tabIndex={0} className="relative mt-6 overflow-x-auto rounded-xl border border-slate-200">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <caption className="sr-only">Plays by site and patient link</caption>
          <thead className="bg-slate-50 text-left text-xs font-semibold text-slate-600">
            <tr>
              <th scope="col" className="px-3 py-2">
                Where
              </th>
              <th scope="col" className="px-3 py-2 text-right">
                Plays
              </th>
              <th scope="col" className="px-3 py-2 text-right">
                Unique viewers
              </th>
              <th scope="col" className="px-3 py-2 text-right">
                Average watched
              </th>
              <th scope="col" className="px-3 py-2 text-right">
                Reached 25 / 50 / 75 / 100 %
              </th>
              {hasLinks ? (
                <th scope="col" className="px-3 py-2">
                  Patient
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {sources.map((s) => (
              <tr key={s.kind === "site" ? `site-${s.host}` : `link-${s.linkId}`} className="align-top">
                <th scope="row" className="px-3 py-2 text-left font-medium">
                  {s.kind === "site" ? (
                    <>
                      {s.host === "direct" ? "No site recognised" : s.host}
                      <span className="block text-xs font-normal text-slate-500">Website</span>
                    </>
                  ) : (
                    <>
                      {s.label}
                      <span className="block text-xs font-normal text-slate-500">
                        Patient link{s.revoked ? " · revoked" : s.expiresAt ? ` · until ${formatDate(s.expiresAt)}` : ""}
                      </span>
                    </>
                  )}
                </th>
                <td className="px-3 py-2 text-right tabular-nums">{s.plays}</td>
                <td className="px-3 py-2 text-right tabular-nums">{s.viewers}</td>
                <td className="px-3 py-2 text-right tabular-nums">{watched(s)}</td>
                <td className="px-3 py-2 text-right whitespace-nowrap tabular-nums">
                  {[s.reached25, s.reached50, s.reached75, s.reached100].map((n) => percent(n, s.plays)).join(" / ")}
                </td>
                {hasLinks ? (
                  <td className="px-3 py-2 text-xs whitespace-nowrap">
                    {s.kind === "link" ? (
                      <>
                        <span className="block">Opened: {s.openedAt ? formatDate(s.openedAt) : "not yet"}</span>
                        <span className="block">Watched to the end: {s.completedAt ? formatDate(s.completedAt) : "not yet"}</span>
                      </>
                    ) : null}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {hasLinks ? (
        <p className="mt-3 text-xs text-slate-600">
          Whether a patient opened a link and watched a video to the end is recorded by the link, not by the patient&apos;s identity. Your clinic may note it in
          the patient&apos;s record as part of informing them before a consultation or procedure; it does not show that they understood it.
        </p>
      ) : null}
    </>
  );
}
