import { vi } from "vitest";
import { getDb } from "~/lib/db.server.ts";

/**
 * The next transaction does its work and then fails to commit (a lost connection): whatever it
 * wrote must be gone, and the caller sees the error.
 */
export function failNextCommit(message = "connection lost") {
  const client = getDb().prisma;
  const original = client.$transaction.bind(client);
  vi.spyOn(client, "$transaction").mockImplementationOnce((async (fn: (tx: unknown) => Promise<unknown>) =>
    original(async (tx: unknown) => {
      await fn(tx);
      throw new Error(message);
    })) as never);
}
