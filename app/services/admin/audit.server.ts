import { prisma } from "~/lib/db.server.ts";
import type { Prisma } from "~/generated/prisma/client.ts";
import { accountlessRole, type ActorRole } from "~/validation/audit-actor.ts";
export { AUDIT_ENTITY_TYPES } from "~/validation/audit.ts";

// The back office's audit log (decision 008). Every admin write calls recordAudit with the
// transaction of the write itself, so the change and its record commit or fail together. The
// log is append-only: nothing here updates or deletes, and a trigger refuses it anyway.

/**
 * Who did it: the signed-in user (an e-mail kept as it was, should the account change), with
 * their role when the caller has read it (the session's user has); otherwise it is read here.
 */
export type Actor = { id: string; email: string; role?: "admin" | "user" };

/**
 * Whom the log names: an account (an admin, or a member acting on their own account), or a
 * command run on the server or the app's own job, which have none (id null, the e-mail
 * `cli:<os user>@<host>` as scripts/reset-second-factors.ts writes it, or `system:<what>`).
 */
export type AuditActor = Actor | { id: null; email: string };

/** The actor's role as the row keeps it (decision 036): the role at the time, not the one the account has later. */
async function actorRole(tx: Tx, actor: AuditActor): Promise<ActorRole | null> {
  if (actor.id === null) return accountlessRole(actor.email);
  const role = actor.role ?? (await tx.user.findUnique({ where: { id: actor.id }, select: { role: true } }))?.role;
  return role === "admin" ? "admin" : role === "user" ? "member" : null;
}

export type AuditEntry = {
  /** "<entity>.<verb>", e.g. animation.create, category.delete, setting.update. */
  action: string;
  entityType: string;
  entityId?: string | null;
  /** One line for people: "Created animation “Knee Replacement”". */
  summary: string;
  /** The record before the write (null for a creation). Only changed fields are kept. */
  before?: Record<string, unknown> | null;
  /** The record after the write (null for a deletion). */
  after?: Record<string, unknown> | null;
};

type Tx = Prisma.TransactionClient;

export async function recordAudit(tx: Tx, actor: AuditActor, entry: AuditEntry) {
  const changes = auditChanges(entry.before ?? null, entry.after ?? null);
  await tx.auditLog.create({
    data: {
      actorId: actor.id,
      actorEmail: actor.email,
      actorRole: await actorRole(tx, actor),
      action: entry.action,
      entityType: entry.entityType,
      entityId: entry.entityId ?? null,
      summary: entry.summary.slice(0, 500),
      changes: changes ?? undefined,
    },
  });
}

// Long values (page HTML, descriptions) are kept short: the log says what changed, the record
// itself says what it is now.
const MAX_VALUE = 200;
const IGNORED = new Set(["createdAt", "updatedAt", "searchText", "animationCount"]);

function auditValue(value: unknown): Prisma.JsonValue {
  if (value === undefined || value === null) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "number" || typeof value === "boolean") return value;
  if (Array.isArray(value)) return value.map(auditValue);
  if (typeof value === "object" && typeof (value as { toFixed?: unknown }).toFixed === "function") return String(value); // Decimal
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE)}…` : text;
}

/**
 * The fields that differ as `{ field: [before, after] }`: a creation lists every field with
 * `null` before, a deletion every field with `null` after. Null when nothing changed.
 */
export function auditChanges(before: Record<string, unknown> | null, after: Record<string, unknown> | null) {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const changes: Record<string, [Prisma.JsonValue, Prisma.JsonValue]> = {};
  for (const key of keys) {
    if (IGNORED.has(key)) continue;
    const was = auditValue(before?.[key]);
    const is = auditValue(after?.[key]);
    if (JSON.stringify(was) !== JSON.stringify(is)) changes[key] = [was, is];
  }
  return Object.keys(changes).length > 0 ? changes : null;
}

// ---- the /admin/audit list ----

export const AUDIT_PAGE_SIZE = 25;

export type AuditFilter = {
  entityType?: string;
  /** Part of the actor's e-mail. */
  actor?: string;
  /** Part of the summary or the record's id. */
  search?: string;
  /** Inclusive day bounds, YYYY-MM-DD. */
  from?: string;
  to?: string;
  page?: number;
};

/**
 * One page of the log, newest first. No count of the table: the pager only needs to know
 * whether a next page exists (one row more than the page is read).
 */
export async function listAuditLog(filter: AuditFilter) {
  const page = Math.max(1, Math.floor(filter.page ?? 1));
  const where: Prisma.AuditLogWhereInput = {
    ...(filter.entityType ? { entityType: filter.entityType } : {}),
    ...(filter.actor ? { actorEmail: { contains: filter.actor.trim(), mode: "insensitive" } } : {}),
    ...(filter.search ? { OR: [{ summary: { contains: filter.search.trim(), mode: "insensitive" } }, { entityId: filter.search.trim() }] } : {}),
    ...(filter.from || filter.to
      ? {
          createdAt: {
            ...(filter.from ? { gte: new Date(`${filter.from}T00:00:00.000Z`) } : {}),
            ...(filter.to ? { lt: new Date(new Date(`${filter.to}T00:00:00.000Z`).getTime() + 86_400_000) } : {}),
          },
        }
      : {}),
  };
  const rows = await prisma.auditLog.findMany({
    where,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip: (page - 1) * AUDIT_PAGE_SIZE,
    take: AUDIT_PAGE_SIZE + 1,
  });
  const entries = rows.slice(0, AUDIT_PAGE_SIZE);
  return { entries: await withActorRoles(entries), page, hasNext: rows.length > AUDIT_PAGE_SIZE };
}

/**
 * Each row's actor role: as recorded, or for a row written before roles were kept (decision
 * 036), the account's role now, marked `roleNow` so the list can say so; null when the account is gone.
 */
async function withActorRoles<T extends { actorId: string | null; actorEmail: string; actorRole: string | null }>(rows: T[]) {
  const unrecorded = [...new Set(rows.filter((r) => !r.actorRole && r.actorId).map((r) => r.actorId!))];
  const accounts = unrecorded.length ? await prisma.user.findMany({ where: { id: { in: unrecorded } }, select: { id: true, role: true } }) : [];
  const roleNow = new Map(accounts.map((a) => [a.id, a.role === "admin" ? "admin" : "member"] as const));
  return rows.map((row) => {
    if (row.actorRole) return { ...row, actorRole: row.actorRole as ActorRole, roleNow: false };
    if (!row.actorId) return { ...row, actorRole: accountlessRole(row.actorEmail), roleNow: false };
    return { ...row, actorRole: roleNow.get(row.actorId) ?? null, roleNow: roleNow.has(row.actorId) };
  });
}
