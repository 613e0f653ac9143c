import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixPgliteAdapter, pgliteCliAdapter, postgresCliAdapter, readNameColumnsAsText } from "../../prisma/cli-adapters.ts";

// The workarounds for Prisma's JS schema-engine path (prisma/cli-adapters.ts), each checked
// against the bug it exists for.
const client = new PGlite();
// A new PGlite runs initdb first (seconds, far more on a loaded machine): waited for under the
// hook's timeout, not the first test's (which CI once hit).
beforeAll(() => client.waitReady);
afterAll(() => client.close());

describe("PGlite adapter for the Prisma CLI", () => {
  it("rejects a failing migration script instead of reporting success", async () => {
    const raw = await new PrismaPGlite(client).connect();
    const fixed = fixPgliteAdapter(raw, client);
    await expect(fixed.executeScript("CREATE TABLE ok_table (id int); SELECT * FROM missing_table;")).rejects.toThrow(/missing_table/);
  });

  it("runs an argument-less multi-statement script through executeRaw", async () => {
    const fixed = fixPgliteAdapter(await new PrismaPGlite(client).connect(), client);
    await fixed.executeRaw({ sql: "CREATE TABLE a (id int); CREATE TABLE b (id int);", args: [], argTypes: [] });
    const tables = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename IN ('a', 'b')`);
    expect(tables.rows[0]!.n).toBe(2);
  });

  it("still binds arguments when there are some", async () => {
    const fixed = fixPgliteAdapter(await new PrismaPGlite(client).connect(), client);
    await fixed.executeRaw({ sql: "INSERT INTO a (id) VALUES ($1)", args: [7], argTypes: ["Int32"] as never });
    expect((await client.query<{ id: number }>("SELECT id FROM a")).rows).toEqual([{ id: 7 }]);
  });

  it("gives the shadow database its own in-memory instance", async () => {
    const factory = pgliteCliAdapter(client);
    const shadow = await factory.connectToShadowDb();
    await shadow.executeScript("CREATE TABLE only_in_shadow (id int)");
    const main = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'only_in_shadow'`);
    expect(main.rows[0]!.n).toBe(0);
  });
});

describe("PostgreSQL adapter for the Prisma CLI", () => {
  it('reports name and "char" columns as text, in single and multi-statement results and transactions', async () => {
    const fake = {
      performIO: async (query: { sql: string }) =>
        query.sql === "multi" ? [{ fields: [{ dataTypeID: 19 }] }, {}] : { fields: [{ dataTypeID: 18 }, { dataTypeID: 23 }] },
      startTransaction: async () => ({ performIO: async () => ({ fields: [{ dataTypeID: 19 }] }) }),
    };
    const fixed = readNameColumnsAsText(fake);
    expect(await fixed.performIO({ sql: "one" })).toEqual({ fields: [{ dataTypeID: 25 }, { dataTypeID: 23 }] });
    expect(await fixed.performIO({ sql: "multi" })).toEqual([{ fields: [{ dataTypeID: 25 }] }, {}]);
    const tx = (await fixed.startTransaction()) as { performIO: () => Promise<unknown> };
    expect(await tx.performIO()).toEqual({ fields: [{ dataTypeID: 25 }] });
  });

  it.runIf(process.env.DATABASE_URL)("reads introspection-style columns from a real server", async () => {
    const adapter = await postgresCliAdapter(process.env.DATABASE_URL!).connect();
    const result = await adapter.queryRaw({ sql: "SELECT 'x'::name AS n, 'r'::\"char\" AS c", args: [], argTypes: [] });
    expect(result.rows).toEqual([["x", "r"]]);
    await adapter.dispose();
  });

  it.runIf(process.env.DATABASE_URL)("uses a separate shadow database and drops it afterwards", async () => {
    const factory = postgresCliAdapter(process.env.DATABASE_URL!);
    const shadow = await factory.connectToShadowDb();
    const name = (await shadow.queryRaw({ sql: "SELECT current_database() AS d", args: [], argTypes: [] })).rows[0]![0];
    expect(name).toMatch(/^prisma_shadow_/);
    expect(process.env.DATABASE_URL).not.toContain(String(name));
    await shadow.dispose();
  });
});
