import { prisma } from "~/lib/db.server.ts";
import { Prisma } from "~/generated/prisma/client.ts";
import { getCredential } from "./guards.server.ts";

// A guarded form's fields, kept through the step-up detour (decision 034). A POST that needs a
// recent second factor is sent to /auth/step-up; the fields it carried are kept on the browser
// session's own row, and the form's page takes them back once, after the code, so the admin
// does not type the notes again. Kept on the server, not in a cookie: a campaign's HTML would
// not fit in one, and nothing typed travels back and forth. Never kept: files (only
// url-encoded bodies are read), and fields that look like a secret.

/** How long a kept form waits for its page: the detour takes a minute, not ten. */
export const KEPT_FORM_MS = 10 * 60 * 1000;
/** A form's fields beyond this size are not kept (the admin types them again, as before). */
export const KEPT_FORM_MAX_BYTES = 64 * 1024;
/** Passwords, codes, tokens and the like are never written down on the way. */
const SECRET_FIELD = /pass|code|secret|token|csrf|otp/i;

export type KeptFields = Record<string, string | string[]>;
type Kept = { path: string; fields: KeptFields; savedAt: string };

/** The page a form posts to and comes back to: its path, without the `.data` of a script's request. */
const formPath = (request: Request) => new URL(request.url).pathname.replace(/\.data$/, "") || "/";

/**
 * Keeps the posted fields of `request` on its browser session for the form's page, when the
 * request is a url-encoded POST whose body has not been read. Answers whether it kept them.
 */
export async function keepPostedForm(request: Request): Promise<boolean> {
  if (request.method !== "POST" || request.bodyUsed) return false;
  if (!(request.headers.get("content-type") ?? "").toLowerCase().startsWith("application/x-www-form-urlencoded")) return false;
  const credential = await getCredential(request);
  if (credential?.kind !== "session") return false;
  let form: URLSearchParams;
  try {
    form = new URLSearchParams(await request.clone().text());
  } catch {
    return false;
  }
  const fields: KeptFields = {};
  for (const name of new Set(form.keys())) {
    if (SECRET_FIELD.test(name) || name === "intent" || name === "redirectTo") continue;
    const values = form.getAll(name);
    fields[name] = values.length === 1 ? values[0]! : values;
  }
  if (Object.keys(fields).length === 0) return false;
  const kept: Kept = { path: formPath(request), fields, savedAt: new Date().toISOString() };
  if (Buffer.byteLength(JSON.stringify(kept)) > KEPT_FORM_MAX_BYTES) return false;
  await prisma.session.updateMany({ where: { id: credential.id }, data: { keptForm: kept } });
  return true;
}

/**
 * The fields kept for this page by the step-up detour, once: they are gone from the session
 * when returned (a reload shows the page as stored). Null when there are none for this page,
 * or they are older than KEPT_FORM_MS (then they are dropped).
 */
export async function takeKeptForm(request: Request, now = Date.now()): Promise<KeptFields | null> {
  const credential = await getCredential(request);
  if (credential?.kind !== "session") return null;
  const row = await prisma.session.findUnique({ where: { id: credential.id }, select: { keptForm: true } });
  const kept = row?.keptForm as Kept | null | undefined;
  if (!kept || typeof kept !== "object") return null;
  const stale = !(now - Date.parse(kept.savedAt) < KEPT_FORM_MS);
  if (!stale && kept.path !== formPath(request)) return null;
  // Conditional on the very value read: of two tabs taking it, one gets it.
  const taken = await prisma.session.updateMany({
    where: { id: credential.id, keptForm: { equals: kept as unknown as Prisma.InputJsonValue } },
    data: { keptForm: Prisma.DbNull },
  });
  return stale || taken.count === 0 ? null : kept.fields;
}
