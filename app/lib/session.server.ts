import crypto from "node:crypto";
import { createCookie } from "react-router";
import { prisma } from "./db.server.ts";
import { getEnv } from "./env.server.ts";

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

function sessionCookie() {
  const env = getEnv();
  return createCookie("medanim_session", {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    // Secure whenever the app is served over HTTPS; plain http on localhost must still work.
    secure: env.NODE_ENV === "production" && Boolean(env.APP_URL?.startsWith("https:")),
    secrets: [env.SESSION_SECRET],
    maxAge: SESSION_TTL_MS / 1000,
  });
}

export async function getSessionId(request: Request): Promise<string | null> {
  const header = request.headers.get("Cookie");
  // Most requests are anonymous: no cookie to verify.
  if (!header?.includes("medanim_session=")) return null;
  const value = await sessionCookie().parse(header);
  return typeof value === "string" && value ? value : null;
}

/** A fresh session row (a new id at every sign-in) and the cookie that points at it. */
export async function createSession(userId: string, request: Request): Promise<string> {
  const id = crypto.randomBytes(32).toString("base64url");
  await prisma.session.create({
    data: {
      id,
      userId,
      expiresAt: new Date(Date.now() + SESSION_TTL_MS),
      userAgent: request.headers.get("user-agent")?.slice(0, 300) ?? null,
    },
  });
  return sessionCookie().serialize(id);
}

export async function destroySession(request: Request): Promise<string> {
  const id = await getSessionId(request);
  if (id) await prisma.session.deleteMany({ where: { id } });
  return sessionCookie().serialize("", { maxAge: 0 });
}
