import { afterEach, describe, expect, it, vi } from "vitest";
import { resetEnv } from "~/lib/env.server.ts";
import { memberWritesGeneration, noteStatement, noteTransaction } from "~/lib/member-writes.server.ts";
import { keptForCaller } from "~/services/auth/member-cache.server.ts";

// Isolates the member cache's two parts on purpose: which statements make a kept caller stale
// (the SQL below is what Prisma's query compiler sends, copied from its query events), and the
// rule that a load overlapping a write is never reused, which no request can time reliably.
// tests/integration/member-cache.test.ts proves the whole through the app.

function moves(sql: string) {
  const before = memberWritesGeneration();
  noteStatement(sql);
  return memberWritesGeneration() !== before;
}

describe("noteStatement", () => {
  it("moves at a write to a user, a sign-in or a licence", () => {
    expect(moves('INSERT INTO "public"."Subscription" ("id","userId","type") VALUES ($1,$2,$3) RETURNING "public"."Subscription"."id"')).toBe(true);
    expect(moves('UPDATE "public"."User" SET "accountType" = CAST($1::text AS "public"."AccountType"), "updatedAt" = $2 WHERE ("public"."User"."id" = $3 AND 1=1)')).toBe(true);
    expect(moves('UPDATE "public"."RefreshToken" SET "revokedAt" = $1 WHERE "public"."RefreshToken"."familyId" = $2')).toBe(true);
    expect(moves('DELETE FROM "public"."Session" WHERE "public"."Session"."id" = $1')).toBe(true);
    expect(moves('UPDATE "Subscription" SET status = $1 WHERE id = $2')).toBe(true);
  });

  it("moves when an animation or a category goes (their licences lose the link)", () => {
    expect(moves('DELETE FROM "public"."Animation" WHERE ("public"."Animation"."id" = $1 AND 1=1)')).toBe(true);
    expect(moves('DELETE FROM "public"."Category" WHERE "public"."Category"."id" = $1')).toBe(true);
    expect(moves('UPDATE "public"."Animation" SET "views" = "views" + $1 WHERE "public"."Animation"."id" = $2')).toBe(false);
  });

  it("stays for reads, other tables and a session's last-used time", () => {
    expect(moves('SELECT "public"."User"."id" FROM "public"."User" WHERE "public"."User"."id" = $1')).toBe(false);
    expect(moves('SELECT id FROM "User" WHERE id = $1::uuid FOR UPDATE')).toBe(false);
    expect(moves('INSERT INTO "public"."AuditLog" ("id","action") VALUES ($1,$2)')).toBe(false);
    expect(moves('UPDATE "public"."Session" SET "lastUsedAt" = $1 WHERE "public"."Session"."id" = $2')).toBe(false);
    // A write to a session's expiry beside its last-used time is a change.
    expect(moves('UPDATE "public"."Session" SET "lastUsedAt" = $1, "expiresAt" = $2 WHERE "public"."Session"."id" = $3')).toBe(true);
  });

  it("moves again when a transaction that wrote such a row ends, and not for one that did not", async () => {
    const before = memberWritesGeneration();
    await noteTransaction(Promise.resolve("nothing written"));
    expect(memberWritesGeneration()).toBe(before);

    let commit!: () => void;
    const transaction = noteTransaction(new Promise<void>((resolve) => (commit = resolve)));
    noteStatement('UPDATE "public"."User" SET "isActive" = $1 WHERE "public"."User"."id" = $2');
    const reported = memberWritesGeneration();
    expect(reported).toBe(before + 1);
    // A load kept between the report and the COMMIT holds rows from before the write.
    commit();
    await transaction;
    expect(memberWritesGeneration()).toBe(reported + 1);
  });
});

describe("keptForCaller", () => {
  afterEach(() => {
    delete process.env.MEMBER_CACHE_MS;
    resetEnv();
  });

  it("reuses a load until a write, and never reuses one that a write overlapped", async () => {
    process.env.MEMBER_CACHE_MS = "60000";
    resetEnv();
    const load = vi.fn(async () => ({ loaded: load.mock.calls.length }));
    const first = await keptForCaller("unit:a", load);
    expect(await keptForCaller("unit:a", load)).toBe(first);
    expect(load).toHaveBeenCalledTimes(1);

    noteStatement('UPDATE "public"."User" SET "firstName" = $1 WHERE "public"."User"."id" = $2');
    const second = await keptForCaller("unit:a", load);
    expect(second).not.toBe(first);
    expect(load).toHaveBeenCalledTimes(2);

    // A load in flight while a write runs: its answer may predate the write.
    let finish!: (value: { loaded: number }) => void;
    const slow = keptForCaller("unit:b", () => new Promise<{ loaded: number }>((resolve) => (finish = resolve)));
    noteStatement('DELETE FROM "public"."Session" WHERE "public"."Session"."id" = $1');
    finish({ loaded: -1 });
    expect(await slow).toEqual({ loaded: -1 });
    expect(await keptForCaller("unit:b", load)).not.toEqual({ loaded: -1 });
  });

  it("keeps nothing when MEMBER_CACHE_MS is 0", async () => {
    process.env.MEMBER_CACHE_MS = "0";
    resetEnv();
    const load = vi.fn(async () => ({}));
    await keptForCaller("unit:c", load);
    await keptForCaller("unit:c", load);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
