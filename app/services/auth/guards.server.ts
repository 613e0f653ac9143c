import { data, type MiddlewareFunction, redirect } from "react-router";
import { apiErrorResponse, assertCallerMayBeRead, defineGuard } from "~/lib/api-route.server.ts";
import { prisma } from "~/lib/db.server.ts";
import { getSessionId } from "~/lib/session.server.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { publicUserSelect, type PublicUser, verifyAccessToken } from "./credentials.server.ts";
import { keptForCaller } from "./member-cache.server.ts";
import { hasSecondFactor } from "./second-factor.server.ts";

// Guards. One requireUser for browser routes and /api alike: a session cookie or a bearer token.
// `require*` throws a redirect (HTML) or a 401/403 JSON answer (/api); `getUser` returns null.
// Each says the access it grants, which is what the /api reference documents for an endpoint
// that names it as its `auth`: anyone (none), getUser (optional), requireUser, requireAdmin.

/** No guard: the call is open to anyone and does not read the caller. */
export const anyone = defineGuard("none", async () => undefined);

function isApiRequest(request: Request) {
  return new URL(request.url).pathname.startsWith("/api/");
}

function bearerToken(request: Request) {
  const header = request.headers.get("Authorization");
  const match = header?.match(/^Bearer\s+(.+)$/i);
  return match?.[1]?.trim() || null;
}

/**
 * How the caller is signed in: a browser session or an /api token family. The sessions list
 * marks it as "this device", and step-up reads when it last confirmed a second factor.
 */
export type Credential = { kind: "session"; id: string; stepUpAt: Date | null } | { kind: "token"; familyId: string; stepUpAt: Date | null };
type Caller = { user: PublicUser; credential: Credential };

const callerCache = new WeakMap<Request, Promise<Caller | null>>();

function getCaller(request: Request): Promise<Caller | null> {
  let pending = callerCache.get(request);
  if (!pending) {
    pending = lookUpCaller(request);
    callerCache.set(request, pending);
  }
  return pending;
}

/** The signed-in user or null. Memoised per request: root and route loaders share one lookup. */
export const getUser = defineGuard("optional", async (request: Request): Promise<PublicUser | null> => {
  assertCallerMayBeRead(request);
  return (await getCaller(request))?.user ?? null;
});

/** The caller's session or token family (null when anonymous). */
export async function getCredential(request: Request): Promise<Credential | null> {
  return (await getCaller(request))?.credential ?? null;
}

/** How often a session's "last used" is written: the list needs minutes, not every request. */
const TOUCH_EVERY_MS = 5 * 60 * 1000;

/**
 * The caller's rows are kept between requests (member-cache.server.ts) and checked against the
 * clock here, on every request: a session's expiry and the access token's own (in its signature).
 */
async function lookUpCaller(request: Request): Promise<Caller | null> {
  const bearer = bearerToken(request);
  if (bearer) {
    const claims = await verifyAccessToken(bearer);
    if (!claims) return null;
    return keptForCaller(`token:${claims.familyId}:${claims.userId}`, () => loadTokenCaller(claims));
  }
  const sessionId = await getSessionId(request);
  if (!sessionId) return null;
  const session = await keptForCaller(`session:${sessionId}`, () => loadSession(sessionId));
  const now = new Date();
  if (!session || session.expiresAt < now || !session.user.isActive) return null;
  if (now.getTime() - session.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
    // On the kept row too, so the next requests do not write it again.
    session.lastUsedAt = now;
    await prisma.session.updateMany({ where: { id: sessionId }, data: { lastUsedAt: now } });
  }
  return { user: session.user, credential: { kind: "session", id: sessionId, stepUpAt: session.stepUpAt } };
}

async function loadTokenCaller(claims: { userId: string; familyId: string }): Promise<Caller | null> {
  // The family's newest row: a revoked family (signed out, ended from /profile, a reused
  // refresh token) ends its access tokens at once.
  const family = await prisma.refreshToken.findFirst({
    where: { familyId: claims.familyId, userId: claims.userId, revokedAt: null },
    orderBy: { createdAt: "desc" },
    select: { stepUpAt: true, user: { select: publicUserSelect } },
  });
  if (!family?.user.isActive) return null;
  return { user: family.user, credential: { kind: "token", familyId: claims.familyId, stepUpAt: family.stepUpAt } };
}

function loadSession(id: string) {
  return prisma.session.findUnique({
    where: { id },
    select: { expiresAt: true, lastUsedAt: true, stepUpAt: true, user: { select: publicUserSelect } },
  });
}

export const requireUser = defineGuard("user", async (request: Request): Promise<PublicUser> => {
  const user = await getUser(request);
  if (user) return user;
  if (isApiRequest(request)) throw data({ message: "Authentication required" }, { status: 401 });
  throw redirect(`/auth?redirectTo=${encodeURIComponent(pagePath(request))}`);
});

/**
 * The path and query of the page asked for. Loaders get the raw request (React Router's
 * v8_passThroughRequests), so a client-side navigation arrives as `/page.data?_routes=...`.
 */
export function pagePath(request: Request) {
  const url = new URL(request.url);
  const pathname = url.pathname === "/_root.data" ? "/" : url.pathname.replace(/\.data$/, "");
  url.searchParams.delete("_routes");
  const index = url.searchParams.getAll("index").filter(Boolean);
  url.searchParams.delete("index");
  for (const value of index) url.searchParams.append("index", value);
  return `${pathname}${url.search}`;
}

export const SECOND_FACTOR_REQUIRED = "Set up two-step sign-in (an authenticator app or a passkey) on your profile before using admin features.";
export const STEP_UP_REQUIRED = "Confirm it's you: enter a code from your authenticator app to continue.";
/** Where a second factor is confirmed for the current sign-in (step-up.server.ts), and back. */
export const STEP_UP_PATH = "/auth/step-up";

/**
 * An admin who has set up a second factor (decision 019) and confirmed it in this sign-in. Non-admins: 403 (/api) or
 * home. An admin without one: 403 with `secondFactorRequired` (/api), or the set-up walk-through. An admin whose
 * session or token family never confirmed one (signed in with the password alone before the factor existed): 403 with
 * `stepUpRequired` (/api), or the step-up form, which comes back here.
 */
export const requireAdmin = defineGuard("admin", async (request: Request): Promise<PublicUser> => {
  const user = await requireUser(request);
  if (user.role !== "admin") {
    if (isApiRequest(request)) throw data({ message: "Admin access required" }, { status: 403 });
    // Non-admins are sent home.
    throw redirect("/");
  }
  if (!(await adminHasSecondFactor(request, user.id))) {
    if (isApiRequest(request)) throw data({ message: SECOND_FACTOR_REQUIRED, secondFactorRequired: true }, { status: 403 });
    throw redirect(`${TWO_STEP_SETUP_PATH}?redirectTo=${encodeURIComponent(pagePath(request))}`);
  }
  if ((await getCredential(request))?.stepUpAt) return user;
  if (isApiRequest(request)) throw data({ message: STEP_UP_REQUIRED, stepUpRequired: true }, { status: 403 });
  throw await redirectWithToast(`${STEP_UP_PATH}?redirectTo=${encodeURIComponent(pagePath(request))}`, {
    title: "Confirm it's you",
    description: "This sign-in used only your password. Confirm your second factor to open the back office.",
  });
});

// Memoised per request, like the caller: the layout's middleware and an action's own
// requireAdmin ask it for the same request.
const secondFactorCache = new WeakMap<Request, Promise<boolean>>();
function adminHasSecondFactor(request: Request, userId: string) {
  let pending = secondFactorCache.get(request);
  if (!pending) {
    pending = hasSecondFactor(userId);
    secondFactorCache.set(request, pending);
  }
  return pending;
}

/** Where an admin without a second factor is walked through setting one up. */
export const TWO_STEP_SETUP_PATH = "/profile/two-step";

export async function requireAnonymous(request: Request) {
  if (await getUser(request)) throw redirect("/dashboard");
}

/**
 * The admin guard as route middleware (decision 008): on the admin branches of the route table
 * it runs before every loader and action below it, so a child route cannot skip it. Pages:
 * anonymous → /auth, non-admin → / (decision 008). /api: 401 without a token, 403 for a non-admin,
 * in the /api error shape.
 */
export const adminPagesGuard: MiddlewareFunction<Response> = async ({ request }, next) => {
  await requireAdmin(request);
  return next();
};

export const adminApiGuard: MiddlewareFunction<Response> = async ({ request }, next) => {
  try {
    await requireAdmin(request);
  } catch (refusal) {
    return apiErrorResponse(refusal);
  }
  return next();
};
