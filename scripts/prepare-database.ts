// Shared by `npm start` and `npm run dev`: apply pending migrations, seed the demo data when the
// database has no user yet. Returns whether this was that first run.
import { getDb } from "../app/lib/db.server.ts";

export async function prepareDatabase({ seedOnFirstRun = true } = {}) {
  const db = getDb();
  const applied = await db.migrate();
  if (applied.length) console.log(`Applied migrations: ${applied.join(", ")}`);
  const firstRun = (await db.prisma.user.count()) === 0;
  if (firstRun && seedOnFirstRun) {
    console.log("First run: seeding the demo data...");
    const { seed } = await import("../prisma/seed.ts");
    await seed(db.prisma);
  }
  return { firstRun };
}
