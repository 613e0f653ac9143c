import { getEnv } from "~/lib/env.server.ts";
import { registerCache } from "~/lib/cache-registry.server.ts";
import { metrics } from "~/lib/metrics.server.ts";

// A signed-in caller's rows (user, session or token family, active licences), kept between
// their requests (decision 023). Three statements per page cost a member more than rendering it
// on embedded PGlite, and they change rarely. A copy is used only until a write that could
// touch it runs in this process (cache-registry.server.ts empties the map at each one: users,
// sessions, token families, licences, and deletes of what licences name) and for at most
// MEMBER_CACHE_MS, which bounds what another instance's write takes to show.

type Kept = { value: Promise<unknown>; keptAt: number };

const MAX_ENTRIES = 10_000;
const kept = new Map<string, Kept>();
// After a write every copy is stale: let them all go rather than find their keys. A load in
// flight is in the map already, so one that overlaps a write goes too and is never reused.
registerCache("member", () => kept.clear());

/**
 * `load()`'s answer for `key`, reused while it is fresh. Concurrent misses share one load; a
 * load that overlaps a write is gone with the rest at the next lookup, so it is never reused.
 */
export function keptForCaller<T>(key: string, load: () => Promise<T>): Promise<T> {
  const ttlMs = getEnv().MEMBER_CACHE_MS;
  if (ttlMs <= 0) return load();
  const now = Date.now();
  const hit = kept.get(key);
  if (hit && now - hit.keptAt < ttlMs) {
    metrics().cacheLookups.inc({ prefix: "member", result: "hit" });
    return hit.value as Promise<T>;
  }
  metrics().cacheLookups.inc({ prefix: "member", result: "miss" });
  const value = load();
  const entry: Kept = { value, keptAt: now };
  kept.delete(key);
  kept.set(key, entry);
  value.catch(() => {
    if (kept.get(key) === entry) kept.delete(key);
  });
  // Bounded: the oldest first (a Map iterates in insertion order, and a reload moves a key last).
  while (kept.size > MAX_ENTRIES) kept.delete(kept.keys().next().value!);
  return value;
}
