// A small read-through cache for hot, shared, read-mostly data (the public catalogue). It keeps
// copies for a couple of seconds, never the truth: every instance reads the database again
// after the TTL, so several instances agree within that time, and a writer on this instance
// can drop entries at once with `forget`. Concurrent misses share one load (no stampede).

import { getEnv } from "./env.server.ts";
import { metrics } from "./metrics.server.ts";

/**
 * How long shared public data may be reused: CATALOGUE_CACHE_MS (two seconds of staleness is
 * invisible to people). The test suite sets it to 0 by default, since its factories write rows
 * behind the services' backs; tests/integration/cache-invalidation.test.ts turns it on to prove
 * every write through the app is visible to the next read.
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

// On globalThis: the server entry (server.ts, where the page cache listens) and the server build
// (whose services call forget) load separate copies of this module, and a write in one must
// reach the listener of the other. Keyed, so a module loaded again replaces its listener.
const forgetListeners = new Map<string, () => void>();

/**
 * Drops every entry whose key starts with `prefix` (all of them without one). It also empties
 * the rendered-answer cache (page-cache.server.ts): a page shows many kinds of data, so a write
 * to any of them makes every kept page suspect. `shown: false` is for data no shared page or
 * public call shows (a licence's embed sites): a member's write then leaves the pages kept.
 */
export function forget(prefix = "", { shown = true }: { shown?: boolean } = {}) {
  for (const key of [...store.keys()]) if (key.startsWith(prefix)) store.delete(key);
  if (shown) for (const listener of forgetListeners.values()) listener();
}

/** Runs `listener` at every `forget` in any copy of this module (the page cache's invalidation), under `name`. */
export function onForget(name: string, listener: () => void) {
  forgetListeners.set(name, listener);
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
