import { data } from "react-router";
import type { StepUp } from "~/lib/api-route.server.ts";
import { prisma } from "~/lib/db.server.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { recordAudit } from "~/services/admin/audit.server.ts";
import type { Prisma } from "~/generated/prisma/client.ts";
import type { PublicUser } from "./credentials.server.ts";
import { type Credential, getCredential, pagePath, requireAdmin, requireUser, STEP_UP_PATH, STEP_UP_REQUIRED } from "./guards.server.ts";
import { type CodeKind, verifySecondFactorCode } from "./second-factor.server.ts";
import { keepPostedForm } from "./kept-form.server.ts";

// Step-up (decision 019): the back office's most dangerous actions (roles, blocking, refunds,
// prices, settings, campaigns, deleting an animation) need a second factor confirmed in this
// session or token family within the last ten minutes. A sign-in that asked for a factor counts.

export const STEP_UP_WINDOW_MS = 10 * 60 * 1000;
/** The toast after a step-up, by code or passkey. */
export const STEP_UP_CONFIRMED = {
  title: "Confirmed",
  description: `You can go ahead: protected actions ask for nothing more for ${STEP_UP_WINDOW_MS / 60_000} minutes.`,
};

/** The toast after "Ask me again next time" on the step-up page. */
export const STEP_UP_ENDED = {
  title: "Confirmation ended",
  description: "The next protected action asks for your second factor again.",
};

/**
 * The 403 an /api call declaring a step-up documents (STEP_UP, stepUpInRun), beside the admin
 * guard's refusals; `when` narrows it for a call that asks only for some changes.
 */
export function stepUpRefusal(when?: string) {
  return `Refused: not an admin, an admin without a second factor (\`secondFactorRequired: true\`), or${when ? ` ${when},` : ""} no second factor confirmed in the last 10 minutes (\`stepUpRequired: true\`: confirm one at POST /api/auth/step-up, then repeat the call)`;
}

/** An /api endpoint's declaration that every call needs a recent second factor. */
export const STEP_UP: StepUp = { check: (request) => requireStepUp(request), refusal: stepUpRefusal(), inRun: false };

/**
 * The same, asked for by the endpoint's `run` (its `stepUp()`) where the service decides: in the
 * case `when` names, or after the input's own checks.
 */
export function stepUpInRun(when?: string): StepUp {
  return { check: (request) => requireStepUp(request), refusal: stepUpRefusal(when), inRun: true };
}

export function stepUpIsRecent(credential: Credential | null, now = Date.now()) {
  return Boolean(credential?.stepUpAt && now - credential.stepUpAt.getTime() < STEP_UP_WINDOW_MS);
}

/**
 * Where to confirm a second factor before filling in a long guarded form (and back), or null when
 * one was confirmed recently: the form's content would not survive requireStepUp's detour.
 */
export async function stepUpLinkUnlessRecent(request: Request) {
  if (stepUpIsRecent(await getCredential(request))) return null;
  return `${STEP_UP_PATH}?redirectTo=${encodeURIComponent(pagePath(request))}`;
}

/**
 * The caller, when a second factor was confirmed recently; otherwise /api answers 403 with
 * `stepUpRequired: true` and a page is sent to the step-up form, which returns to it.
 */
export async function requireStepUp(request: Request, { returnTo, keepForm = false }: StepUpOptions = {}): Promise<PublicUser> {
  const user = await requireUser(request);
  if (stepUpIsRecent(await getCredential(request))) return user;
  if (new URL(request.url).pathname.startsWith("/api/")) {
    throw data({ message: STEP_UP_REQUIRED, stepUpRequired: true }, { status: 403 });
  }
  // The page is shown again after the code and the admin repeats the action, now within the
  // window; a page that takes its kept fields back (decision 034) shows what was typed.
  const kept = keepForm && (await keepPostedForm(request));
  const back = returnTo ?? pagePath(request);
  throw await redirectWithToast(`${STEP_UP_PATH}?redirectTo=${encodeURIComponent(back)}`, {
    title: "Confirm it's you",
    description: kept ? `This action needs a code from your authenticator app. ${FORM_KEPT}` : "This action needs a code from your authenticator app.",
  });
}

/** What the step-up detour's toast adds when the form's fields were kept. */
export const FORM_KEPT = "What you typed is kept and comes back with the form.";

type StepUpOptions = {
  /** Where the step-up form returns to; the page asked for by default. */
  returnTo?: string;
  /** Keep the POST's fields for the page, which takes them back with takeKeptForm (decision 034). */
  keepForm?: boolean;
};

/** The guard of a page action that is all step-up-guarded admin work: an admin, then a recent factor. */
export async function requireAdminStepUp(request: Request, options: Pick<StepUpOptions, "keepForm"> = {}): Promise<PublicUser> {
  const admin = await requireAdmin(request);
  await requireStepUp(request, options);
  return admin;
}

/**
 * Ends this browser session's step-up now ("ask me again"): the next protected action asks for
 * a second factor, as it would after ten minutes. The sign-in still counts as one that confirmed
 * a factor, so the back office stays open. Audited like a step-up.
 */
export async function endStepUp(request: Request, now = new Date()) {
  const user = await requireUser(request);
  const credential = await getCredential(request);
  if (credential?.kind !== "session" || !stepUpIsRecent(credential, now.getTime())) return user;
  await prisma.$transaction(async (tx) => {
    await tx.session.updateMany({ where: { id: credential.id, userId: user.id }, data: { stepUpAt: new Date(now.getTime() - STEP_UP_WINDOW_MS) } });
    await recordAudit(tx, user, {
      action: "security.step_up_ended",
      entityType: "security",
      entityId: user.id,
      summary: "Asked for a second factor again before the next protected action",
    });
  });
  return user;
}

type Tx = Prisma.TransactionClient;

const METHOD_WORDS: Record<CodeKind | "passkey", string> = { totp: "an authenticator code", recovery: "a recovery code", passkey: "a passkey" };

/** Marks the credential as stepped up now, with its audit entry, in one transaction. */
export async function recordStepUp(user: PublicUser, credential: Credential, method: CodeKind | "passkey", tx?: Tx) {
  const write = async (db: Tx) => {
    const now = new Date();
    if (credential.kind === "session") await db.session.updateMany({ where: { id: credential.id, userId: user.id }, data: { stepUpAt: now } });
    else await db.refreshToken.updateMany({ where: { familyId: credential.familyId, userId: user.id }, data: { stepUpAt: now } });
    await recordAudit(db, user, {
      action: "security.step_up",
      entityType: "security",
      entityId: user.id,
      summary: `Confirmed a second factor (${METHOD_WORDS[method]}) for a protected action`,
    });
  };
  return tx ? write(tx) : prisma.$transaction(write);
}

/** Step-up with a typed code (authenticator or recovery). Throws INVALID_CODE, 429, or 401. */
export async function stepUpWithCode(request: Request, code: string, client: string) {
  const user = await requireUser(request);
  const credential = await getCredential(request);
  if (!credential) throw data({ message: "Authentication required" }, { status: 401 });
  const kind = await verifySecondFactorCode(user.id, code, client);
  await recordStepUp(user, credential, kind);
  return user;
}
