import { data, type MiddlewareFunction, redirect } from "react-router";
import { apiErrorResponse, assertCallerMayBeRead, defineGuard } from "~/lib/api-route.server.ts";
import { prisma } from "~/lib/db.server.ts";
import { getSessionId } from "~/lib/session.server.ts";
import { publicUserSelect, type PublicUser, verifyAccessToken } from "./credentials.server.ts";

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

const userCache = new WeakMap<Request, Promise<PublicUser | null>>();

/** The signed-in user or null. Memoised per request: root and route loaders share one lookup. */
export const getUser = defineGuard("optional", (request: Request): Promise<PublicUser | null> => {
  assertCallerMayBeRead(request);
  let pending = userCache.get(request);
  if (!pending) {
    pending = lookUpUser(request);
    userCache.set(request, pending);
  }
  return pending;
});

async function lookUpUser(request: Request): Promise<PublicUser | null> {
  const bearer = bearerToken(request);
  if (bearer) {
    const userId = await verifyAccessToken(bearer);
    if (!userId) return null;
    const user = await prisma.user.findUnique({ where: { id: userId }, select: publicUserSelect });
    return user?.isActive ? user : null;
  }
  const sessionId = await getSessionId(request);
  if (!sessionId) return null;
  const session = await prisma.session.findUnique({
    where: { id: sessionId },
    select: { expiresAt: true, user: { select: publicUserSelect } },
  });
  if (!session || session.expiresAt < new Date() || !session.user.isActive) return null;
  return session.user;
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

export const requireAdmin = defineGuard("admin", async (request: Request): Promise<PublicUser> => {
  const user = await requireUser(request);
  if (user.role === "admin") return user;
  if (isApiRequest(request)) throw data({ message: "Admin access required" }, { status: 403 });
  // Non-admins are sent home.
  throw redirect("/");
});

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
