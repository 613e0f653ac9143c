import crypto from "node:crypto";
import { registerCache } from "~/lib/cache-registry.server.ts";
import { extensionForContentType } from "~/lib/upload.server.ts";
import { getObjectInfo, objectPath, storageBackend, type StoredObjectInfo } from "~/lib/storage.server.ts";
import { decideObjectAccess, getAccess, type ObjectViewer } from "../licensing/access.server.ts";
import { getUser } from "../auth/guards.server.ts";

// Who gets which stored object, and how it is sent. The rules themselves are
// decideObjectAccess in the access service; this adds the headers that follow from them.

/** Public media never change under their id: any cache may keep them for a year. */
export const PUBLIC_CACHE_CONTROL = "public, max-age=31536000, immutable";
/** Full videos and download files depend on who asks: nobody stores them. */
export const PROTECTED_CACHE_CONTROL = "private, no-store";

export const OBJECT_MESSAGES = {
  401: "Authentication required",
  403: "You do not have access to this file",
  404: "File not found",
} as const;

export type ObjectDelivery =
  | { ok: false; status: 401 | 403 | 404; message: string }
  | {
      ok: true;
      id: string;
      /** The StoredObject row; null for an S3 object that was never confirmed. */
      info: StoredObjectInfo | null;
      contentType: string;
      cacheControl: string;
      contentDisposition?: string;
    };

/** The credentials a media request carries: the session cookie or a bearer token. */
export type MediaCredentials = { cookie?: string; authorization?: string };

/**
 * Who is asking, with their rights, kept for a moment per credential: a player sends many
 * range requests for one video, and each would otherwise look up the session and the
 * subscriptions again. A revoked right or an ended session takes effect within this delay.
 */
const VIEWER_TTL_MS = 2_000;
const VIEWER_CACHE_MAX = 10_000;
const viewerCache = new Map<string, { expires: number; viewer: Promise<ObjectViewer> }>();

export function loadViewer(credentials: MediaCredentials): () => Promise<ObjectViewer> {
  return () => {
    if (!credentials.cookie && !credentials.authorization) return Promise.resolve(null);
    const key = crypto
      .createHash("sha256")
      .update(`${credentials.cookie ?? ""}\n${credentials.authorization ?? ""}`)
      .digest("base64url");
    const now = Date.now();
    const cached = viewerCache.get(key);
    if (cached && cached.expires > now) return cached.viewer;
    const viewer = lookUpViewer(credentials);
    if (viewerCache.size >= VIEWER_CACHE_MAX) viewerCache.delete(viewerCache.keys().next().value!);
    viewerCache.set(key, { expires: now + VIEWER_TTL_MS, viewer });
    viewer.catch(() => viewerCache.delete(key));
    return viewer;
  };
}

async function lookUpViewer(credentials: MediaCredentials): Promise<ObjectViewer> {
  const headers = new Headers();
  if (credentials.cookie) headers.set("Cookie", credentials.cookie);
  if (credentials.authorization) headers.set("Authorization", credentials.authorization);
  const user = await getUser(new Request("http://localhost/objects/", { headers }));
  if (!user) return null;
  return { ...user, access: user.role === "admin" ? undefined : await getAccess(user) };
}

// Emptied at any write to users, sign-ins or licences (cache-registry.server.ts).
registerCache("objectViewers", () => viewerCache.clear());

/**
 * Decides whether the bearer of `credentials` may have object `id` and how it is sent. The
 * viewer is looked up only when the object is not public. Only someone with the right learns
 * whether the object exists.
 */
export async function getObjectDelivery(id: string, credentials: MediaCredentials): Promise<ObjectDelivery> {
  const [decision, info] = await Promise.all([decideObjectAccess(loadViewer(credentials), objectPath(id)), getObjectInfo(id)]);
  if (!decision.allowed) return { ok: false, status: decision.status, message: OBJECT_MESSAGES[decision.status] };
  if (!info && storageBackend() === "local") return { ok: false, status: 404, message: OBJECT_MESSAGES[404] };
  const contentType = info?.contentType ?? "application/octet-stream";
  if (decision.visibility === "public") return { ok: true, id, info, contentType, cacheControl: PUBLIC_CACHE_CONTROL };
  const download = decision.download;
  return {
    ok: true,
    id,
    info,
    contentType,
    cacheControl: PROTECTED_CACHE_CONTROL,
    contentDisposition: download ? attachment(download.slug, info?.contentType) : undefined,
  };
}

/** `attachment; filename="<animation-slug>.<ext>"`: the name is the slug, never an upload's. */
function attachment(slug: string, contentType: string | undefined) {
  const ext = (contentType && extensionForContentType(contentType)) ?? "zip";
  const safe = slug.replace(/[^A-Za-z0-9._-]/g, "_") || "download";
  return `attachment; filename="${safe}.${ext}"`;
}
