import { Panel } from "~/components/admin/admin-page.tsx";
import { Badge } from "~/components/admin/data-table.tsx";
import { TextLink } from "~/components/ui/text-link.tsx";
import { formatCount, formatDateTime, formatFileSize, pluralize } from "~/lib/format.ts";
import type { BackupStatus } from "~/services/admin/backups.server.ts";

// The dashboard's Backups panel (decision 035): the last good backup (when, where, size), and a
// warning when it is older than the stale limit, when the last run failed, or when the last
// restore drill failed. Every claim comes from a Backup row.

/** "Runs daily at 03:00 UTC" for a daily cron time; other schedules as written (cron, UTC). */
export function scheduleWords(cron: string) {
  const daily = /^(\d{1,2}) (\d{1,2}) \* \* \*$/.exec(cron.trim());
  if (daily && Number(daily[1]) < 60 && Number(daily[2]) < 24) return `Runs daily at ${daily[2]!.padStart(2, "0")}:${daily[1]!.padStart(2, "0")} UTC`;
  return `Runs on the schedule ${cron} (cron, UTC)`;
}

export function BackupPanel({ status }: { status: BackupStatus }) {
  const { lastGood, failure, drill, staleHours, schedule } = status;
  return (
    <Panel title="Backups">
      <div className="space-y-2 text-sm">
        {lastGood ? (
          <p>
            Last backup: {formatDateTime(lastGood.finishedAt)} ({formatFileSize(lastGood.archiveBytes)},{" "}
            {lastGood.storage === "s3" ? `${formatCount(lastGood.objectCount)} S3 keys listed` : pluralize(lastGood.objectCount, "file")})
            <span className="block break-all text-slate-600">
              At <code>{lastGood.location}</code>
            </span>
          </p>
        ) : (
          <p role="alert">
            <Badge tone="yellow">No backup yet</Badge>{" "}
            {schedule
              ? "The backup job has not written one yet: it runs on the schedule below."
              : "Scheduled backups are off: set BACKUP_SCHEDULE, or run npm run backup."}{" "}
            (docs/operating.md, “Backups”)
          </p>
        )}
        {lastGood?.stale ? (
          <p role="alert">
            <Badge tone="yellow">Older than {staleHours} hours</Badge> The daily backup has not succeeded since: see the failure below, or the server&apos;s log
            if there is none.
          </p>
        ) : null}
        {failure ? (
          <p role="alert">
            <Badge tone="red">Last run failed</Badge> Backup failed: {failure.error} ({formatDateTime(failure.failedAt)})
          </p>
        ) : null}
        {drill ? (
          drill.passed ? (
            <p>Restore drill passed {formatDateTime(drill.checkedAt)}.</p>
          ) : (
            <div role="alert">
              <p>
                <Badge tone="red">Restore drill failed</Badge> {formatDateTime(drill.checkedAt)}, on <code className="break-all">{drill.location}</code>:
              </p>
              <pre className="mt-1 overflow-x-auto rounded bg-slate-50 p-2 text-xs whitespace-pre-wrap">{drill.report}</pre>
            </div>
          )
        ) : null}
        <p className="text-slate-600">
          {schedule ? (
            <>
              {scheduleWords(schedule)}; the number of archives kept is set on the <TextLink to="/admin/settings">settings</TextLink> page.
            </>
          ) : (
            "Scheduled backups are off."
          )}
        </p>
      </div>
    </Panel>
  );
}
