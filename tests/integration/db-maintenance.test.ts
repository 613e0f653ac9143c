import { describe, expect, it } from "vitest";
import { getDb, prisma } from "~/lib/db.server.ts";

// Embedded PGlite has no autovacuum: the server runs maintain() at start and hourly.
describe.skipIf(Boolean(process.env.DATABASE_URL))("maintain() on the embedded database", () => {
  it("vacuums and refreshes the planner's statistics", async () => {
    const stats = () => prisma.$queryRaw<Array<{ reltuples: number }>>`SELECT reltuples::float8 AS "reltuples" FROM pg_class WHERE relname = 'Category'`;
    for (let i = 0; i < 30; i++) await prisma.category.create({ data: { name: `Maintained ${i}`, slug: `maintained-${i}` } });
    expect((await stats())[0]!.reltuples).toBeLessThan(30);
    await getDb().maintain();
    expect((await stats())[0]!.reltuples).toBe(30);
  });
});
