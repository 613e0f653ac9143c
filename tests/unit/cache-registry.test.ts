import { afterEach, describe, expect, it, vi } from "vitest";
import { announce, cachesDroppedBy, FACTS, noteStatement, noteTransaction, registerCache } from "~/lib/cache-registry.server.ts";
import { resetEnv } from "~/lib/env.server.ts";
import { keptForCaller } from "~/services/auth/member-cache.server.ts";

// Isolates the registry's reading of statements on purpose (the SQL below is what Prisma's query
// compiler sends, copied from its query events), its transactions, and the rule that a load
// overlapping a write is never reused, which no request can time reliably.
// tests/integration/cache-registry.test.ts proves every dependency through the app.

function drops(sql: string, cache: "member" | "pageCache" | "catalogue" = "member") {
  const drop = vi.fn();
  registerCache(cache, drop);
  noteStatement(sql);
  return drop.mock.calls.length > 0;
}

describe("noteStatement", () => {
  it("drops the member cache at a write to a user, a sign-in or a licence", () => {
    expect(drops('INSERT INTO "public"."Subscription" ("id","userId","type") VALUES ($1,$2,$3) RETURNING "public"."Subscription"."id"')).toBe(true);
    expect(
      drops('UPDATE "public"."User" SET "accountType" = CAST($1::text AS "public"."AccountType"), "updatedAt" = $2 WHERE ("public"."User"."id" = $3 AND 1=1)'),
    ).toBe(true);
    expect(drops('UPDATE "public"."RefreshToken" SET "revokedAt" = $1 WHERE "public"."RefreshToken"."familyId" = $2')).toBe(true);
    expect(drops('DELETE FROM "public"."Session" WHERE "public"."Session"."id" = $1')).toBe(true);
    expect(drops('UPDATE "Subscription" SET status = $1 WHERE id = $2')).toBe(true);
    expect(drops('  insert into "User" ("id") values ($1) on conflict ("id") do update set "email" = $2')).toBe(true);
  });

  it("drops it when an animation or a category goes (their licences lose the link), not at their edits", () => {
    expect(drops('DELETE FROM "public"."Animation" WHERE ("public"."Animation"."id" = $1 AND 1=1)')).toBe(true);
    expect(drops('DELETE FROM "public"."Category" WHERE "public"."Category"."id" = $1')).toBe(true);
    expect(drops('UPDATE "public"."Animation" SET "title" = $1 WHERE "public"."Animation"."id" = $2')).toBe(false);
  });

  it("lets reads, other tables, the view counter and a session's last-used time go", () => {
    expect(drops('SELECT "public"."User"."id" FROM "public"."User" WHERE "public"."User"."id" = $1')).toBe(false);
    expect(drops('SELECT id FROM "User" WHERE id = $1::uuid FOR UPDATE')).toBe(false);
    expect(drops('INSERT INTO "public"."AuditLog" ("id","action") VALUES ($1,$2)')).toBe(false);
    expect(drops('UPDATE "public"."Session" SET "lastUsedAt" = $1 WHERE "public"."Session"."id" = $2')).toBe(false);
    // A write to a session's expiry beside its last-used time is a change.
    expect(drops('UPDATE "public"."Session" SET "lastUsedAt" = $1, "expiresAt" = $2 WHERE "public"."Session"."id" = $3')).toBe(true);
    const views = 'UPDATE "Animation" AS a SET "views" = a."views" + v.n FROM (VALUES ($1::uuid, $2::int)) AS v(id, n) WHERE a."id" = v.id';
    expect(drops(views, "pageCache")).toBe(false);
    expect(drops(views, "catalogue")).toBe(false);
    const one = 'UPDATE "public"."Animation" SET "views" = ("public"."Animation"."views" + $1), "updatedAt" = $2 WHERE "public"."Animation"."id" = $3';
    expect(drops(one, "pageCache")).toBe(false);
    expect(drops('UPDATE "public"."Animation" SET "views" = $1, "title" = $2 WHERE "public"."Animation"."id" = $3', "pageCache")).toBe(true);
  });

  it("indexes every cache under the tables it names", () => {
    expect(cachesDroppedBy("AppSetting")).toEqual(expect.arrayContaining(["settings", "layout", "pageCache"]));
    expect(cachesDroppedBy("Animation")).not.toContain("member");
    expect(cachesDroppedBy("Animation", "delete")).toContain("member");
    expect(cachesDroppedBy("AuditLog")).toEqual([]);
  });

  it("drops again when a transaction ends, committed or rolled back, and only what it dropped", async () => {
    const member = vi.fn();
    const faqs = vi.fn();
    registerCache("member", member);
    registerCache("faqs", faqs);
    await noteTransaction(Promise.resolve("nothing written"));
    expect(member).not.toHaveBeenCalled();

    let commit!: () => void;
    const committed = noteTransaction(new Promise<void>((resolve) => (commit = resolve)));
    noteStatement('UPDATE "public"."User" SET "isActive" = $1 WHERE "public"."User"."id" = $2');
    expect(member).toHaveBeenCalledTimes(1);
    // A load kept between the report and the COMMIT holds rows from before the write.
    commit();
    await committed;
    expect(member).toHaveBeenCalledTimes(2);

    let rollBack!: (error: Error) => void;
    const rolledBack = noteTransaction(new Promise<void>((_, reject) => (rollBack = reject)));
    noteStatement('DELETE FROM "public"."Session" WHERE "public"."Session"."id" = $1');
    // A load during the transaction may have kept the row the rollback brings back.
    rollBack(new Error("rolled back"));
    await expect(rolledBack).rejects.toThrow("rolled back");
    expect(member).toHaveBeenCalledTimes(4);
    expect(faqs).not.toHaveBeenCalled();
  });
});

describe("announce", () => {
  it("drops what depends on a named fact, for one key", () => {
    const drop = vi.fn();
    registerCache("storedObjectInfo", drop);
    announce(FACTS.storedObjectRemoved, "an-id");
    expect(drop).toHaveBeenCalledWith("an-id");
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
