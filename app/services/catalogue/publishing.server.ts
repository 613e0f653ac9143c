import { Prisma } from "~/generated/prisma/client.ts";
import { prisma } from "~/lib/db.server.ts";
import { conflict } from "~/lib/errors.server.ts";
import { type AuditActor, recordAudit } from "../admin/audit.server.ts";
import { readSettings } from "../site/settings.server.ts";
import { currentReviewSql, REVIEW_DUE_WINDOW_DAYS } from "./review-rule.server.ts";
import { PUBLISH_STATES, type PublishState } from "~/validation/admin-catalogue.ts";

// Where an animation stands on its way to the public catalogue (decision 032). An animation is a
// draft until published; publishing needs its media ladder finished for its current master and,
// while require_medical_review is on (the default), a current medical review. The state is never
// stored: it is read from the animation, its current media set, its transcode jobs and its
// review, by the one query below, for the admin list, its filter and the publish check alike.

export { PUBLISH_STATES, type PublishState };

type Db = Pick<Prisma.TransactionClient, "$queryRaw" | "appSetting">;

export type PublishFacts = {
  id: string;
  state: PublishState;
  hasVideo: boolean;
  ladderDone: boolean;
  processing: boolean;
  reviewCurrent: boolean;
};

/** The system's name in the audit log when "Publish when ready" publishes (no admin pressed it). */
export const SYSTEM_PUBLISHER = { id: null, email: "system:publish-when-ready" } as const satisfies AuditActor;

async function reviewRequired(db: Db) {
  return (await readSettings(db)).require_medical_review === "true";
}

/**
 * The facts and the state of some animations (`ids`), or the ids of every animation in one
 * state (`state`). One CASE decides the state: what the list shows is what its filter finds.
 */
function factsQuery(now: Date, required: boolean, where: Prisma.Sql) {
  const horizon = new Date(now.getTime() + REVIEW_DUE_WINDOW_DAYS * 24 * 3600_000);
  return Prisma.sql`
    WITH f AS (
      SELECT a."id",
        a."isActive" AS "published",
        a."fullVideo" IS NOT NULL AS "hasVideo",
        COALESCE(s."sourcePath" = a."fullVideo", false) AS "ladderDone",
        EXISTS (
          SELECT 1 FROM "MediaJob" j
          WHERE j."animationId" = a."id" AND j."kind" = 'transcode' AND j."sourcePath" = a."fullVideo"
            AND j."status" IN ('queued', 'running')
        ) AS "processing",
        COALESCE(${currentReviewSql(now)}, false) AS "reviewCurrent",
        COALESCE(${currentReviewSql(now)} AND a."reviewDueAt" > ${horizon}, false) AS "reviewFresh"
      FROM "Animation" a
      LEFT JOIN "MediaSet" s ON s."id" = a."mediaSetId"
    ), states AS (
      SELECT f.*,
        CASE
          WHEN f."published" AND f."reviewFresh" THEN 'published'
          WHEN f."published" THEN 'review-due'
          WHEN f."ladderDone" AND (f."reviewCurrent" OR NOT ${required}) THEN 'ready'
          WHEN f."ladderDone" THEN 'review'
          WHEN f."processing" THEN 'processing'
          ELSE 'draft'
        END AS "state"
      FROM f
    )
    SELECT "id", "state", "hasVideo", "ladderDone", "processing", "reviewCurrent" FROM states WHERE ${where}`;
}

export async function getPublishFacts(ids: string[], { db = prisma as Db, now = new Date() } = {}): Promise<Map<string, PublishFacts>> {
  if (!ids.length) return new Map();
  const rows = await db.$queryRaw<PublishFacts[]>(
    factsQuery(now, await reviewRequired(db), Prisma.sql`"id" IN (${Prisma.join(ids.map((id) => Prisma.sql`${id}::uuid`))})`),
  );
  return new Map(rows.map((row) => [row.id, row]));
}

/** The ids of the animations in `state`: the admin list's filter (?state=). */
export async function idsInPublishState(state: PublishState, now = new Date()): Promise<string[]> {
  const rows = await prisma.$queryRaw<{ id: string }[]>(factsQuery(now, await reviewRequired(prisma), Prisma.sql`"state" = ${state}`));
  return rows.map((row) => row.id);
}

/** What still stands between an unpublished animation and publishing, in words for the admin. */
export function missingToPublish(facts: PublishFacts, required: boolean): string[] {
  const missing: string[] = [];
  if (!facts.hasVideo) missing.push("it has no full video");
  else if (!facts.ladderDone)
    missing.push(facts.processing ? "its video is still processing" : "its video has not been processed (retry the transcode on its edit screen)");
  if (required && !facts.reviewCurrent) missing.push("it has no current medical review");
  return missing;
}

/** The 409 text: "Cannot publish “X” yet: its video is still processing and it has no current medical review." */
export function notReadyMessage(title: string, missing: string[]) {
  const list = missing.length > 1 ? `${missing.slice(0, -1).join(", ")} and ${missing.at(-1)}` : missing[0];
  return `Cannot publish “${title}” yet: ${list}.`;
}

/** Refuses (409, naming what is missing) to publish an animation that is not ready. */
export async function assertReadyToPublish(db: Db, animation: { id: string; title: string }, now = new Date()) {
  const facts = (await getPublishFacts([animation.id], { db, now })).get(animation.id);
  if (!facts) return;
  const missing = missingToPublish(facts, await reviewRequired(db));
  if (missing.length) throw conflict(notReadyMessage(animation.title, missing));
}

/**
 * "Publish when ready": called inside the transaction of every event that can complete what
 * publishing needs (a finished ladder, a saved review, a saved form). Publishes the animation
 * there, with the system's audit row, when it asked to be and is now ready; false otherwise.
 */
export async function publishIfReady(tx: Prisma.TransactionClient, animationId: string, now = new Date()) {
  const row = await tx.animation.findUnique({ where: { id: animationId }, select: { title: true, isActive: true, publishWhenReady: true } });
  if (!row || row.isActive || !row.publishWhenReady) return false;
  const facts = (await getPublishFacts([animationId], { db: tx, now })).get(animationId);
  if (facts?.state !== "ready") return false;
  await tx.animation.update({ where: { id: animationId }, data: { isActive: true, publishWhenReady: false } });
  await recordAudit(tx, SYSTEM_PUBLISHER, {
    action: "animation.publish",
    entityType: "animation",
    entityId: animationId,
    summary: `Published animation “${row.title}” when it was ready (publish when ready)`,
    before: { isActive: false, publishWhenReady: true },
    after: { isActive: true, publishWhenReady: false },
  });
  return true;
}

/** The edit screen's line: the animation's state and, unpublished, what publishing still needs. */
export async function getPublishing(id: string, now = new Date()) {
  const facts = (await getPublishFacts([id], { now })).get(id);
  if (!facts) return null;
  const missing = facts.state === "published" || facts.state === "review-due" ? [] : missingToPublish(facts, await reviewRequired(prisma));
  return { state: facts.state, label: PUBLISH_STATES[facts.state], missing };
}
