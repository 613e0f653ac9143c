// Shared by `npm start`, `npm run dev` and `npm run serve`: apply pending migrations, seed the demo
// data when the database has no user yet (unless told not to), else add the system mail templates
// an upgrade brought. Returns whether this was that first run. The database is the loaded
// app's (server.ts loadAppServer), the one the server then serves from.
import type { Database } from "../app/lib/db.server.ts";

export async function prepareDatabase(db: Database, { seedOnFirstRun = true } = {}) {
  const applied = await db.migrate();
  if (applied.length) console.log(`Applied migrations: ${applied.join(", ")}`);
  const firstRun = (await db.prisma.user.count()) === 0;
  if (firstRun && seedOnFirstRun) {
    console.log("First run: seeding the demo data...");
    // The seed is source code: its modules (storage's saveObject above all) are a copy of their
    // own beside the app's bundle, and must write through the same open database, or a second
    // PGlite on the same directory would keep their rows to itself.
    const { setDb } = await import("../app/lib/db.server.ts");
    setDb(db);
    const { seed } = await import("../prisma/seed.ts");
    await seed(db.prisma);
  } else {
    // An upgrade's new system mails (the misuse inbox's reply and digest, say) exist before the
    // first one is sent: missing templates are created, an admin's edits to the others are kept.
    const { seedEmailTemplates } = await import("../prisma/seed-data/email-templates.ts");
    await seedEmailTemplates(db.prisma);
  }
  return { firstRun };
}
