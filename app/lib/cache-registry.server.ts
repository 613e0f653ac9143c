// Every process cache, and what it is made of, in one table (decision 026). A write drops what
// depends on it without its writer knowing the caches: the app's Prisma client reports each
// statement it runs (db.server.ts), `noteStatement` reads the table an INSERT, UPDATE or DELETE
// names and drops every cache that lists it. What is not a table (the bytes of a stored object)
// is a named fact, which the one code that changes it announces with `announce`. The age bounds
// (CATALOGUE_CACHE_MS, PAGE_CACHE_MS, MEMBER_CACHE_MS, the media caches' seconds) are unchanged:
// they bound what a write on another instance, or by another process, takes to show.
//
// Transactions (`noteTransaction`): a statement inside one is reported before its COMMIT makes
// it visible to other connections (PostgreSQL's pool), and a rollback may undo it. So its
// caches are dropped when the statement is reported (a reader in the same session, as on
// PGlite's single one, would otherwise keep seeing the old copy) and dropped again when the
// transaction ends, committed or rolled back: a load between the two read rows from before the
// COMMIT, or rows the rollback removed. A rollback therefore costs a few misses, never a stale
// copy. The page cache's generation makes a render that began before a drop unkeepable, so a
// page rendered during a transaction is not kept either.

/** A write to a table some cache depends on: which caches list it, and how. */
type Dependencies = {
  /** Prisma model names (the tables): any INSERT, UPDATE or DELETE of one drops the cache. */
  tables?: readonly string[];
  /** Tables whose DELETE alone matters: the database empties references to them (ON DELETE SET NULL). */
  deletesOf?: readonly string[];
  /** Named facts that are not rows, announced by the code that changes them. */
  facts?: readonly Fact[];
  /** The cache is memo.server.ts's entries under this key prefix (memo registers their drop). */
  memo?: string;
};

export const FACTS = {
  /** A stored object's bytes are removed (storage.server.ts `deleteObject`), before its row goes. */
  storedObjectRemoved: "stored-object-removed",
} as const;
type Fact = (typeof FACTS)[keyof typeof FACTS];

/** The public catalogue as pages show it: what an animation card, page or category tree reads. */
const CATALOGUE = ["Animation", "Category", "Doctor", "AnimationDoctor", "MediaSet", "MediaRendition", "AnimationCaption"] as const;
/** Who a signed-in caller is and what they hold. */
const CALLER = ["User", "Session", "RefreshToken", "Subscription", "PracticeMember"] as const;

/**
 * The registry. The name is the cache's; the test generated from it
 * (tests/integration/cache-registry.test.ts) writes each table through the app and requires
 * every cache listed against it to be dropped.
 */
export const CACHES = {
  /** Category tree, animation lists and pages, doctors, the search vocabulary (memo "catalogue:"). */
  catalogue: { memo: "catalogue:", tables: [...CATALOGUE, "AppSetting"] },
  /** Content pages by slug and the sitemap's plan (memo "page:"). */
  pages: { memo: "page:", tables: ["Page"] },
  /** The header and footer: legal pages and the platform's name (memo "layout"). */
  layout: { memo: "layout", tables: ["Page", "AppSetting"] },
  /** Help Center answers, the licence placeholder filled from LicenceTerms (memo "faq:"). */
  faqs: { memo: "faq:", tables: ["Faq", "FaqCategory", "LicenceTerms"] },
  settings: { memo: "settings", tables: ["AppSetting"] },
  /** Which licences allow an embed of an animation on a site (memo "embed-licence:"). */
  embedLicences: { memo: "embed-licence:", tables: ["Subscription", "LicenceEmbedDomain", "User", "Animation", "Category"] },
  /** Whole answers for anonymous visitors (page-cache.server.ts): everything a shared page shows. */
  pageCache: { tables: [...CATALOGUE, "Page", "AppSetting", "Faq", "FaqCategory", "LicenceTerms"] },
  /** A signed-in caller's user row, credential and licences (auth/member-cache.server.ts). */
  member: { tables: CALLER, deletesOf: ["Animation", "Category"] },
  /** What a stored object is attached to (licensing/access.server.ts). */
  objectAttachments: { tables: ["Animation", "Category", "Doctor", "AnimationCaption", "Practice"] },
  /** A credential's viewer and rights for /objects (media/delivery.server.ts). */
  objectViewers: { tables: CALLER, deletesOf: ["Animation", "Category"] },
  /** A media set's animation (media/media-urls.server.ts). */
  mediaSetOwners: { tables: ["MediaSet", "Animation", "Category"] },
  /** A member's rights for /media (media/media-urls.server.ts). */
  mediaAccess: { tables: ["User", "Subscription", "PracticeMember"], deletesOf: ["Animation", "Category"] },
  /** A stored object's metadata (storage.server.ts). */
  storedObjectInfo: { tables: ["StoredObject"], facts: [FACTS.storedObjectRemoved] },
} as const satisfies Record<string, Dependencies>;

export type CacheName = keyof typeof CACHES;

/**
 * Writes that change nothing any cache keeps, though they name a table one depends on: the
 * batched view counter (a page shows its count up to the caches' age late, as before) and a
 * session's last-used time (written at most every five minutes per session, in no view).
 * Tested only against statements on their own table.
 */
const QUIET: Record<string, RegExp> = {
  Animation: /^\s*UPDATE\s+(?:"[^"]+"\.)?"Animation"(?:\s+AS\s+\w+)?\s+SET\s+"views"\s*=\s*[^,]*(?:,\s*"updatedAt"\s*=\s*\$\d+)?\s+(?:FROM|WHERE)\b/i,
  Session: /^\s*UPDATE\s+(?:"[^"]+"\.)?"Session"\s+SET\s+"lastUsedAt"\s*=\s*\$1\s+WHERE/i,
};

type Drop = (key?: string) => void;

// Each module that keeps entries registers its own drop, once, when it keeps its first one.
type State = {
  drops: Map<CacheName, Set<Drop>>;
  /** Per open transaction: the caches dropped while it ran, dropped again when it ends. */
  open: Set<Set<CacheName>>;
};
const state: State = { drops: new Map(), open: new Set() };

function index(pick: (d: Dependencies) => readonly string[] | undefined) {
  const map = new Map<string, CacheName[]>();
  for (const [name, deps] of Object.entries(CACHES) as [CacheName, Dependencies][]) {
    for (const key of pick(deps) ?? []) map.set(key, [...(map.get(key) ?? []), name]);
  }
  return map;
}
const byTable = index((d) => d.tables);
const byDelete = index((d) => d.deletesOf);
const byFact = index((d) => d.facts);

/** The caches a write to `table` drops (a DELETE also those listing it in `deletesOf`). */
export function cachesDroppedBy(table: string, kind: "write" | "delete" = "write"): CacheName[] {
  const caches = byTable.get(table) ?? [];
  return kind === "delete" ? [...new Set([...caches, ...(byDelete.get(table) ?? [])])] : caches;
}

/** `drop` empties this copy's entries of cache `name` (one key when given, else all). */
export function registerCache(name: CacheName, drop: Drop) {
  let drops = state.drops.get(name);
  if (!drops) state.drops.set(name, (drops = new Set()));
  drops.add(drop);
}

function dropCaches(names: readonly CacheName[], key?: string) {
  for (const name of names) {
    for (const drop of state.drops.get(name) ?? []) drop(key);
    for (const touched of state.open) touched.add(name);
  }
}

/** Drops every registered cache (a test file's end: the next file has another database). */
export function dropAllCaches() {
  for (const drops of state.drops.values()) for (const drop of drops) drop();
}

/** Announces that a fact some cache keeps has changed (for one key, e.g. an object's id). */
export function announce(fact: Fact, key?: string) {
  dropCaches(byFact.get(fact) ?? [], key);
}

// Prisma's statements name their table first: `INSERT INTO "public"."User"`, `UPDATE "User"`,
// `DELETE FROM "public"."Session"` (an upsert is an INSERT … ON CONFLICT). Reads are most
// statements and are let go on their first letter, before any pattern runs.
const WRITE = /^\s*(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(?:"[^"]+"\.)?"([^"]+)"/i;

/**
 * The table a statement writes, or null for a read (most statements, let go on their first
 * letter before any pattern runs) and for a write no cache notices (QUIET).
 */
export function tableWrittenBy(sql: string): { table: string; isDelete: boolean } | null {
  let i = 0;
  while (sql.charCodeAt(i) <= 32) i++;
  const first = sql.charCodeAt(i) | 32; // lower case
  if (first !== 105 /* i */ && first !== 117 /* u */ && first !== 100 /* d */) return null;
  const match = WRITE.exec(sql);
  if (!match) return null;
  const table = match[2]!;
  if (QUIET[table]?.test(sql)) return null;
  return { table, isDelete: (match[1]!.charCodeAt(0) | 32) === 100 };
}

/** Called with each statement the app's database client ran. */
export function noteStatement(sql: string) {
  const write = tableWrittenBy(sql);
  if (!write) return;
  const caches = byTable.get(write.table);
  if (caches) dropCaches(caches);
  if (write.isDelete) {
    const cascades = byDelete.get(write.table);
    if (cascades) dropCaches(cascades);
  }
}

/**
 * Called with each transaction the app runs (db.server.ts's `prisma.$transaction`): the caches
 * its statements dropped are dropped again once it has ended, committed or not (see the top).
 */
export function noteTransaction<T>(transaction: Promise<T>): Promise<T> {
  const touched = new Set<CacheName>();
  state.open.add(touched);
  return transaction.finally(() => {
    state.open.delete(touched);
    for (const name of touched) for (const drop of state.drops.get(name) ?? []) drop();
  });
}
