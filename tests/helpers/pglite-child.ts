// A process that holds an embedded database open, for the crash and shutdown tests.
import { openDatabase } from "~/lib/db.server.ts";

const db = openDatabase({ dataDir: process.argv[2]! });
await db.migrate();
await db.prisma.appSetting.upsert({
  where: { key: "crash_probe" },
  update: { value: String(Date.now()) },
  create: { key: "crash_probe", value: String(Date.now()) },
});
const count = await db.prisma.appSetting.count();
process.on("SIGTERM", async () => {
  await db.close();
  process.exit(0);
});
console.log(`READY ${count}`);
setInterval(() => {}, 1000);
