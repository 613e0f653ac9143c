// Restores an archive of `npm run backup` into an empty data directory or database:
// `npm run restore -- ARCHIVE [--force]`. Exit 2: refused (damaged archive, target not empty,
// newer archive, other configuration); 1: failed; 0: restored.
// `npm run restore -- --check ARCHIVE` is the restore drill (decision 035): the archive restored
// into a scratch database, its rows counted against the manifest, nothing of the app touched.
// Exit 0: passed; 1: damaged or a count differs (the report says which); 2: bad arguments.
import { parseArgs } from "node:util";
import { BackupRefused } from "../app/lib/backup/backup.server.ts";
import { checkArchive } from "../app/lib/backup/check.server.ts";
import { restoreBackup } from "../app/lib/backup/restore.server.ts";
import { getEnv } from "../app/lib/env.server.ts";
import { DataDirInUseError } from "../app/lib/pglite.server.ts";

let archive: string;
let force: boolean;
let check: boolean;
try {
  const args = parseArgs({ options: { force: { type: "boolean", default: false }, check: { type: "boolean", default: false } }, allowPositionals: true });
  if (args.positionals.length !== 1) throw new Error("Name one archive");
  archive = args.positionals[0]!;
  force = args.values.force;
  check = args.values.check;
  if (check && force) throw new Error("--check touches nothing: --force has no place beside it");
} catch (error) {
  console.error(`${error instanceof Error ? error.message : error}\nUsage: npm run restore -- ARCHIVE [--force]\n       npm run restore -- --check ARCHIVE`);
  process.exit(2);
}

const env = getEnv();
if (check) {
  try {
    const result = await checkArchive(archive, { databaseUrl: env.DATABASE_URL });
    (result.passed ? console.log : console.error)(`${result.report}\nRestore drill ${result.passed ? "passed" : "FAILED"}: ${archive}`);
    process.exitCode = result.passed ? 0 : 1;
  } catch (error) {
    console.error(`Restore drill FAILED: ${error instanceof Error ? error.message : error}`);
    process.exitCode = 1;
  }
} else {
  try {
    const result = await restoreBackup({
      archive,
      dataDir: env.DATA_DIR,
      databaseUrl: env.DATABASE_URL,
      s3Bucket: env.S3_BUCKET,
      force,
      log: (line) => console.log(line),
    });
    const { manifest } = result;
    console.log(
      `Restored the backup of ${manifest.createdAt} (app ${manifest.appVersion}): the ${manifest.database.kind} database and ${result.objectsRestored} object files.`,
    );
    if (manifest.objects.storage === "s3") {
      if (result.missingKeys.length) {
        console.error(
          `${result.missingKeys.length} of the ${manifest.objects.count} S3 keys listed in the archive are missing from the bucket:\n${result.missingKeys.join("\n")}`,
        );
        process.exitCode = 1;
      } else {
        console.log(`All ${manifest.objects.count} S3 keys listed in the archive are in the bucket.`);
      }
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = error instanceof BackupRefused || error instanceof DataDirInUseError ? 2 : 1;
  }
}
