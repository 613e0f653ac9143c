import { Badge } from "~/components/admin/data-table.tsx";
import { MISUSE_STATUS_LABELS, type MisuseStatus } from "~/validation/admin-misuse.ts";

const TONES = { new: "yellow", investigating: "blue", resolved: "green", dismissed: "grey" } as const;

/** A misuse report's state as the inbox and the report page show it. */
export function MisuseStatusBadge({ status }: { status: MisuseStatus }) {
  return <Badge tone={TONES[status]}>{MISUSE_STATUS_LABELS[status]}</Badge>;
}
