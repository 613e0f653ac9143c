// Which statements change who a signed-in caller is or what they hold (decision 023). The
// member cache (services/auth/member-cache.server.ts) keeps a caller's user row, credential and
// active subscriptions between requests; every statement the app's Prisma client runs passes
// through `noteStatement`, and one that writes those rows moves the generation, which makes
// every kept copy stale at once. Reading the statements themselves, rather than asking each of
// the ninety-odd write sites to remember a call, also catches raw SQL and cascades.

/** Tables whose rows make up a caller: a write to any of them changes someone's view. */
const WRITES = /^\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(?:"[^"]+"\.)?"(?:User|Session|RefreshToken|Subscription)"/i;
/** Deleting an animation or a category empties the licences that named it (ON DELETE SET NULL). */
const CASCADES = /^\s*DELETE\s+FROM\s+(?:"[^"]+"\.)?"(?:Animation|Category)"/i;
/** A session's last-used time (written at most every five minutes per session) is in no view. */
const TOUCH = /^\s*UPDATE\s+(?:"[^"]+"\.)?"Session"\s+SET\s+"lastUsedAt"\s*=\s*\$1\s+WHERE/i;

const state = { generation: 0 };

/** Called with each statement the app's database client ran. */
export function noteStatement(sql: string) {
  if ((WRITES.test(sql) && !TOUCH.test(sql)) || CASCADES.test(sql)) state.generation++;
}

/**
 * Called with each transaction the app runs (db.server.ts's `prisma.$transaction`). Prisma may
 * report a statement inside a transaction before the COMMIT that shows it to other connections
 * (PostgreSQL's pool): a load between the two would be kept under the new generation with the
 * old rows. So a transaction that moved the generation moves it again once it has ended.
 */
export function noteTransaction<T>(transaction: Promise<T>): Promise<T> {
  const before = state.generation;
  return transaction.finally(() => {
    if (state.generation !== before) state.generation++;
  });
}

/** Moves whenever a write may have changed a caller: a copy kept under an older value is stale. */
export function memberWritesGeneration() {
  return state.generation;
}
