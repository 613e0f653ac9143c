import { hashToken } from "~/lib/crypto.server.ts";
import { prisma } from "~/lib/db.server.ts";
import { ServiceError } from "~/lib/errors.server.ts";
import { pluralize } from "~/lib/format.ts";
import { type Actor, recordAudit } from "~/services/admin/audit.server.ts";
import type { Prisma } from "~/generated/prisma/client.ts";
import type { PublicUser } from "./credentials.server.ts";
import { describeDevice, describePlace } from "./device.server.ts";
import type { Credential } from "./guards.server.ts";

// "Where you're signed in": the account's browser sessions and /api refresh-token
// families, each ended on its own or all but the caller's. A session's id is the secret its
// cookie carries, so the list, the forms and the /api name a session by the SHA-256 of it; a
// family by its id, which every access token of the family already shows its holder.

export const SIGN_IN_NOT_FOUND = "Session not found";

/** The most of each kind the list shows: enough for any real account, bounded for any other. */
const LIST_LIMIT = 50;

export type SignInItem = {
  kind: "session" | "token";
  /** Public: the SHA-256 hex of a session's id, a family's id. */
  id: string;
  device: string;
  place: string | null;
  ipAddress: string | null;
  createdAt: Date;
  lastUsedAt: Date;
  /** The credential of the request that asked ("This device"). */
  current: boolean;
};

const SESSION_ID = /^[0-9a-f]{64}$/;
const FAMILY_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function publicSessionId(sessionId: string) {
  return hashToken(sessionId);
}

/** The public id of the caller's own credential, as the list names it. */
export function signInIdOf(credential: Credential | null) {
  if (!credential) return null;
  return credential.kind === "session" ? publicSessionId(credential.id) : credential.familyId;
}

/** A family's live row: the one refresh token of it that can still be used. */
function liveTokenWhere(now: Date) {
  return { revokedAt: null, rotatedAt: null, expiresAt: { gt: now } } satisfies Prisma.RefreshTokenWhereInput;
}

const clientSelect = { userAgent: true, ipAddress: true, place: true } as const;

function whereFrom(row: { userAgent: string | null; ipAddress: string | null; place: string | null }) {
  return { device: describeDevice(row.userAgent), place: describePlace(row.place), ipAddress: row.ipAddress };
}

/** The account's live sessions and token families, the caller's first, then the most recently used. */
export async function listSignIns(userId: string, current: Credential | null, now = new Date()): Promise<SignInItem[]> {
  const [sessions, tokens] = await Promise.all([
    prisma.session.findMany({
      where: { userId, expiresAt: { gt: now } },
      orderBy: { lastUsedAt: "desc" },
      take: LIST_LIMIT,
      select: { id: true, createdAt: true, lastUsedAt: true, ...clientSelect },
    }),
    prisma.refreshToken.findMany({
      where: { userId, ...liveTokenWhere(now) },
      orderBy: { createdAt: "desc" },
      take: LIST_LIMIT,
      select: { familyId: true, familyCreatedAt: true, createdAt: true, ...clientSelect },
    }),
  ]);
  const currentId = signInIdOf(current);
  const items: SignInItem[] = sessions.map((session) => {
    const id = publicSessionId(session.id);
    return { kind: "session", id, ...whereFrom(session), createdAt: session.createdAt, lastUsedAt: session.lastUsedAt, current: id === currentId };
  });
  // A family has one live row; two only for the instant of a rotation, the newer one counts.
  const seen = new Set<string>();
  for (const token of tokens) {
    if (seen.has(token.familyId)) continue;
    seen.add(token.familyId);
    items.push({
      kind: "token",
      id: token.familyId,
      ...whereFrom(token),
      createdAt: token.familyCreatedAt,
      // Each refresh makes the family's next row: its creation is the family's last use.
      lastUsedAt: token.createdAt,
      current: token.familyId === currentId,
    });
  }
  return items.sort((a, b) => Number(b.current) - Number(a.current) || b.lastUsedAt.getTime() - a.lastUsedAt.getTime());
}

function describeSignIn(kind: SignInItem["kind"], where: ReturnType<typeof whereFrom>) {
  const from = where.place ?? where.ipAddress;
  return `${kind === "session" ? "the browser session" : "the API sign-in"} on ${where.device}${from ? ` (${from})` : ""}`;
}

/**
 * Ends one of the user's sessions (deleted) or token families (every row revoked, so its
 * access tokens stop at once too). Another account's, an ended one and an unknown id all
 * answer 404 alike. The audit entry is written in the same transaction.
 */
export async function endSignIn(user: PublicUser, id: string, actor: Actor, now = new Date()) {
  const kind = SESSION_ID.test(id) ? "session" : FAMILY_ID.test(id) ? "token" : null;
  if (!kind) throw new ServiceError(SIGN_IN_NOT_FOUND, 404);
  return prisma.$transaction(async (tx) => {
    let where: ReturnType<typeof whereFrom>;
    if (kind === "session") {
      // Found by recomputing the public id: the table keys sessions by their secret.
      // The same sessions the list offers (its bound and order): only those have a public id out there.
      const sessions = await tx.session.findMany({
        where: { userId: user.id, expiresAt: { gt: now } },
        orderBy: { lastUsedAt: "desc" },
        take: LIST_LIMIT,
        select: { id: true, ...clientSelect },
      });
      const session = sessions.find((row) => publicSessionId(row.id) === id);
      const { count } = session ? await tx.session.deleteMany({ where: { id: session.id, userId: user.id } }) : { count: 0 };
      if (!session || count === 0) throw new ServiceError(SIGN_IN_NOT_FOUND, 404);
      where = whereFrom(session);
    } else {
      const token = await tx.refreshToken.findFirst({
        where: { familyId: id, userId: user.id, ...liveTokenWhere(now) },
        orderBy: { createdAt: "desc" },
        select: clientSelect,
      });
      if (!token) throw new ServiceError(SIGN_IN_NOT_FOUND, 404);
      await tx.refreshToken.updateMany({ where: { familyId: id, userId: user.id, revokedAt: null }, data: { revokedAt: now } });
      where = whereFrom(token);
    }
    await recordAudit(tx, actor, {
      action: "security.session_end",
      entityType: "security",
      entityId: user.id,
      summary: `Signed ${user.email} out of ${describeSignIn(kind, where)}`,
    });
    return { kind, id, device: where.device };
  });
}

/**
 * Ends every session and token family of the user but `current` (the caller's, which may be
 * null: then all of them). One audit entry says how many; none when there was nothing to end.
 * Returns how many were ended.
 */
export async function endOtherSignIns(user: PublicUser, current: Credential | null, now = new Date()) {
  const keepSession = current?.kind === "session" ? current.id : null;
  const keepFamily = current?.kind === "token" ? current.familyId : null;
  return prisma.$transaction(async (tx) => {
    const sessions = await tx.session.deleteMany({
      where: { userId: user.id, expiresAt: { gt: now }, ...(keepSession ? { id: { not: keepSession } } : {}) },
    });
    const otherFamily = keepFamily ? { familyId: { not: keepFamily } } : {};
    const families = await tx.refreshToken.findMany({
      where: { userId: user.id, ...liveTokenWhere(now), ...otherFamily },
      distinct: ["familyId"],
      select: { familyId: true },
    });
    // Every row of the other families, rotated ones included: a reused old token must not revive one.
    await tx.refreshToken.updateMany({ where: { userId: user.id, revokedAt: null, ...otherFamily }, data: { revokedAt: now } });
    const ended = sessions.count + families.length;
    if (ended > 0) {
      await recordAudit(tx, user, {
        action: "security.session_end",
        entityType: "security",
        entityId: user.id,
        summary: `Signed ${user.email} out everywhere else: ${pluralize(sessions.count, "browser session")} and ${pluralize(families.length, "API sign-in")} ended`,
      });
    }
    return ended;
  });
}

/**
 * A second factor was just enrolled (or changed): every other session and token family that
 * never confirmed one, signed in with the password alone, is ended, since a thief with the password
 * would hold one of those; the caller's own `current` is marked as confirmed now (enrolling proved
 * the factor). In the enrolment's transaction, with one audit entry when anything was ended.
 * Returns how many were ended.
 */
export async function endPasswordOnlySignIns(tx: Prisma.TransactionClient, user: PublicUser, current: Credential | null, now = new Date()) {
  const keepSession = current?.kind === "session" ? current.id : null;
  const keepFamily = current?.kind === "token" ? current.familyId : null;
  if (keepSession) await tx.session.updateMany({ where: { id: keepSession, userId: user.id }, data: { stepUpAt: now } });
  if (keepFamily) await tx.refreshToken.updateMany({ where: { familyId: keepFamily, userId: user.id }, data: { stepUpAt: now } });
  const sessions = await tx.session.deleteMany({
    where: { userId: user.id, stepUpAt: null, ...(keepSession ? { id: { not: keepSession } } : {}) },
  });
  // A step-up marks every row of its family, so a family's live row tells for all of it.
  const families = await tx.refreshToken.findMany({
    where: { userId: user.id, stepUpAt: null, ...liveTokenWhere(now), ...(keepFamily ? { familyId: { not: keepFamily } } : {}) },
    distinct: ["familyId"],
    select: { familyId: true },
  });
  const familyIds = families.map((family) => family.familyId);
  // Every row of those families, rotated ones included: a reused old token must not revive one.
  if (familyIds.length)
    await tx.refreshToken.updateMany({ where: { userId: user.id, familyId: { in: familyIds }, revokedAt: null }, data: { revokedAt: now } });
  const ended = sessions.count + familyIds.length;
  if (ended > 0) {
    await recordAudit(tx, user, {
      action: "security.session_end",
      entityType: "security",
      entityId: user.id,
      summary: `Signed ${user.email} out of the sign-ins that used only the password: ${pluralize(sessions.count, "browser session")} and ${pluralize(familyIds.length, "API sign-in")} ended`,
    });
  }
  return ended;
}
