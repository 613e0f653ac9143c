// Backs up the configured database and objects into one archive: `npm run backup [-- --out FILE]`.
// Without --out the archive goes where the daily job writes (BACKUP_DIR, or the bucket: decision 035).
// Exit 2: refused (the embedded database is in use, the file exists, bad arguments); 1: failed.
import { parseArgs } from "node:util";
import { BackupRefused, createBackup } from "../app/lib/backup/backup.server.ts";
import { backupDestination, DestinationNotWritable } from "../app/lib/backup/destination.server.ts";
import { getDb } from "../app/lib/db.server.ts";
import { getEnv } from "../app/lib/env.server.ts";
import { formatFileSize } from "../app/lib/format.ts";
import { DataDirInUseError } from "../app/lib/pglite.server.ts";

let out: string | undefined;
try {
  out = parseArgs({ options: { out: { type: "string" } } }).values.out;
} catch (error) {
  console.error(`${error instanceof Error ? error.message : error}\nUsage: npm run backup [-- --out FILE]`);
  process.exit(2);
}

const env = getEnv();
let db;
try {
  db = getDb();
} catch (error) {
  if (!(error instanceof DataDirInUseError)) throw error;
  console.error(
    `${error.message}\nA running server backs its embedded database up itself (the daily job, BACKUP_SCHEDULE); this command needs it stopped. On PostgreSQL (DATABASE_URL) it runs beside the app.`,
  );
  process.exit(2);
}
try {
  const { location, manifest, archiveBytes, recorded } = await createBackup({
    db,
    dataDir: env.DATA_DIR,
    databaseUrl: env.DATABASE_URL,
    s3Bucket: env.S3_BUCKET,
    out,
    destination: backupDestination(env),
  });
  const objects =
    manifest.objects.storage === "s3"
      ? `a list of ${manifest.objects.count} S3 keys`
      : `${manifest.objects.count} files (${formatFileSize(manifest.objects.bytes)})`;
  console.log(`Backup written and checked: ${location} (${formatFileSize(archiveBytes)}): the ${manifest.database.kind} database and ${objects}.`);
  if (!recorded)
    console.log(
      "Not recorded in the database, which predates the Backup table: start the app once (it applies the migrations) and /admin will show later backups.",
    );
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = error instanceof BackupRefused || error instanceof DestinationNotWritable ? 2 : 1;
} finally {
  await db.close();
}
