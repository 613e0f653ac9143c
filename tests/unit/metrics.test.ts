import { describe, expect, it } from "vitest";
import { statementKind } from "~/lib/metrics.server.ts";

// A pure function: the label a database statement is timed under, from a bounded set.
describe("statementKind", () => {
  it("names a statement by its first word, Prisma's transaction comments included, and never by its text", () => {
    expect(statementKind('SELECT "id" FROM "User" WHERE "email" = $1')).toBe("SELECT");
    expect(statementKind("  insert into x values (1)")).toBe("INSERT");
    expect(statementKind("-- a note\nUPDATE x SET y = 1")).toBe("UPDATE");
    expect(statementKind('-- Implicit "COMMIT" query via underlying driver')).toBe("COMMIT");
    expect(statementKind('-- Implicit "BEGIN" query via underlying driver')).toBe("BEGIN");
    expect(statementKind("VACUUM ANALYZE")).toBe("OTHER");
    expect(statementKind("DROP TABLE users; -- robert')")).toBe("OTHER");
  });
});
