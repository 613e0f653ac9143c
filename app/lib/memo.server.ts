// A small read-through cache for hot, shared, read-mostly data (the public catalogue). It keeps
// copies for a couple of seconds, never the truth: every instance reads the database again
// after the TTL, so several instances agree within that time, and a write on this instance
// drops the entries that read its table (cache-registry.server.ts). Concurrent misses share one
// load (no stampede).

import { CACHES, type CacheName, registerCache } from "./cache-registry.server.ts";
import { getEnv } from "./env.server.ts";
import { metrics } from "./metrics.server.ts";

/**
 * How long shared public data may be reused: CATALOGUE_CACHE_MS (two seconds of staleness is
 * invisible to people). Any write on this instance, a test's factory included, drops the entries
 * that depend on it at once (cache-registry.server.ts), so the test suite runs with it on.
 */
export function sharedCacheMs() {
  return getEnv().CATALOGUE_CACHE_MS;
}

type Entry = { value: Promise<unknown>; expires: number };

const MAX_ENTRIES = 2000;
const store = new Map<string, Entry>();

export function memo<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
  if (ttlMs <= 0) return load();
  const now = Date.now();
  const hit = store.get(key);
  if (hit && hit.expires > now) {
    metrics().cacheLookups.inc({ prefix: keyPrefix(key), result: "hit" });
    return hit.value as Promise<T>;
  }
  metrics().cacheLookups.inc({ prefix: keyPrefix(key), result: "miss" });
  if (!registered) registerOnce();
  const value = load();
  const entry: Entry = { value, expires: now + ttlMs };
  store.delete(key);
  store.set(key, entry);
  // A failed load is not remembered.
  value.catch(() => {
    if (store.get(key) === entry) store.delete(key);
  });
  // Bounded: the oldest entries go first (a Map iterates in insertion order).
  while (store.size > MAX_ENTRIES) store.delete(store.keys().next().value!);
  return value;
}

/** Drops every entry whose key starts with `prefix` (all of them without one). */
export function forget(prefix = "") {
  for (const key of [...store.keys()]) if (key.startsWith(prefix)) store.delete(key);
}

// The entries are dropped through the cache registry (cache-registry.server.ts), which names
// the key prefix of each memo-backed cache and what its rows are read from. Registered when the
// first entry is kept.
let registered = false;
function registerOnce() {
  registered = true;
  for (const [name, deps] of Object.entries(CACHES) as [CacheName, { memo?: string }][]) {
    const prefix = deps.memo;
    if (prefix !== undefined) registerCache(name, () => forget(prefix));
  }
}

/**
 * A key's family for the metrics ("catalogue", "page", "embed-licence"): the part before the
 * first ":", as the services name their keys. Anything else shaped is "other", so a key built
 * from an id can never become a label of its own.
 */
function keyPrefix(key: string) {
  const prefix = key.split(":", 1)[0]!;
  return /^[a-z][a-z-]{0,31}$/.test(prefix) ? prefix : "other";
}
