import crypto from "node:crypto";
import { createCookie } from "react-router";
import { prisma } from "./db.server.ts";
import { getEnv } from "./env.server.ts";

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** An httpOnly cookie signed with SESSION_SECRET, for `path`, kept `maxAge` seconds. */
function signedCookie(name: string, path: string, maxAge: number) {
  const env = getEnv();
  return createCookie(name, {
    path,
    httpOnly: true,
    sameSite: "lax",
    // Secure whenever the app is served over HTTPS; plain http on localhost must still work.
    secure: env.NODE_ENV === "production" && Boolean(env.APP_URL?.startsWith("https:")),
    secrets: [env.SESSION_SECRET],
    maxAge,
  });
}

function sessionCookie() {
  return signedCookie("medanim_session", "/", SESSION_TTL_MS / 1000);
}

export async function getSessionId(request: Request): Promise<string | null> {
  const header = request.headers.get("Cookie");
  // Most requests are anonymous: no cookie to verify.
  if (!header?.includes("medanim_session=")) return null;
  const value = await sessionCookie().parse(header);
  return typeof value === "string" && value ? value : null;
}

export type NewSession = {
  userAgent?: string | null;
  ipAddress?: string | null;
  place?: string | null;
  /** Set when this sign-in confirmed a second factor: it counts as a step-up (decision 019). */
  stepUpAt?: Date | null;
};

/** A fresh session row (a new id at every sign-in) and the cookie that points at it. */
export async function createSession(userId: string, client: NewSession = {}): Promise<string> {
  const id = crypto.randomBytes(32).toString("base64url");
  await prisma.session.create({
    data: {
      id,
      userId,
      expiresAt: new Date(Date.now() + SESSION_TTL_MS),
      userAgent: client.userAgent ?? null,
      ipAddress: client.ipAddress ?? null,
      place: client.place ?? null,
      stepUpAt: client.stepUpAt ?? null,
    },
  });
  return sessionCookie().serialize(id);
}

export async function destroySession(request: Request): Promise<string> {
  const id = await getSessionId(request);
  if (id) await prisma.session.deleteMany({ where: { id } });
  return sessionCookie().serialize("", { maxAge: 0 });
}

// The second step of a browser sign-in: after a right password, this cookie carries the
// single-use token of the code page (services/auth/sign-in.server.ts) for five minutes.
function secondStepCookie() {
  return signedCookie("medanim_2fa", "/auth", 5 * 60);
}

export async function getSecondStepToken(request: Request): Promise<string | null> {
  const header = request.headers.get("Cookie");
  if (!header?.includes("medanim_2fa=")) return null;
  const value = await secondStepCookie().parse(header);
  return typeof value === "string" && value ? value : null;
}

export function setSecondStepToken(token: string): Promise<string> {
  return secondStepCookie().serialize(token);
}

export function clearSecondStepToken(): Promise<string> {
  return secondStepCookie().serialize("", { maxAge: 0 });
}
