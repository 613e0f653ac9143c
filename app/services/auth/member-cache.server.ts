import { getEnv } from "~/lib/env.server.ts";
import { memberWritesGeneration } from "~/lib/member-writes.server.ts";
import { metrics } from "~/lib/metrics.server.ts";

// A signed-in caller's rows (user, session or token family, active licences), kept between
// their requests (decision 023). Three statements per page cost a member more than rendering it
// on embedded PGlite, and they change rarely. A copy is used only while no write that could
// touch it has run in this process (member-writes.server.ts moves a generation at each one)
// and for at most MEMBER_CACHE_MS, which bounds what another instance's write takes to show.

type Kept = { value: Promise<unknown>; keptAt: number };

const MAX_ENTRIES = 10_000;
// Every entry was stored under `keptGeneration`: the map is emptied as soon as it moves.
const kept = new Map<string, Kept>();
let keptGeneration = 0;

/**
 * `load()`'s answer for `key`, reused while it is fresh. Concurrent misses share one load; a
 * load that overlaps a write is gone with the rest at the next lookup, so it is never reused.
 */
export function keptForCaller<T>(key: string, load: () => Promise<T>): Promise<T> {
  const ttlMs = getEnv().MEMBER_CACHE_MS;
  if (ttlMs <= 0) return load();
  const now = Date.now();
  const generation = memberWritesGeneration();
  // After a write every copy is stale: let them all go rather than wait for their keys.
  if (generation !== keptGeneration) {
    kept.clear();
    keptGeneration = generation;
  }
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
