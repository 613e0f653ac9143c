import { ArchiveError, extractArchive } from "./archive.server.ts";

// The archive's manifest (its last member) and the check of an archive against it, used by the
// backup (reading back what it wrote), the restore and the restore drill.

export const MANIFEST = "manifest.json";
export const FORMAT = "medanim-backup";
export const FORMAT_VERSION = 1;

export type Manifest = {
  format: typeof FORMAT;
  formatVersion: number;
  appVersion: string;
  backupId: string;
  createdAt: string;
  finishedAt: string;
  database: {
    kind: "pglite" | "postgres";
    member: string;
    migrations: string[];
    schema?: string;
    extensions?: string[];
    /** Rows per table of the app's schema, counted in the very state the dump holds (absent in archives made before the restore drill). */
    rows?: Record<string, number>;
  };
  objects: { storage: "local" | "s3"; count: number; bytes: number; bucket?: string };
  members: Record<string, { size: number; sha256: string }>;
};

/** Bad input or a target that must not be touched: the commands exit with 2. */
export class BackupRefused extends Error {}

/**
 * Reads the archive back and checks every member against the manifest's sha256, writing nothing:
 * a backup checks its archive so before calling it written. Throws BackupRefused ("The archive is
 * damaged: …") on the first pass that finds a difference.
 */
export function verifyArchive(archive: string): Promise<Manifest> {
  return readVerified(archive, null);
}

/** Unpacks the archive into `work` (or only reads it, with null) and checks it against its manifest, member by member. */
export async function readVerified(archive: string, work: string | null): Promise<Manifest> {
  let extracted;
  try {
    extracted = await extractArchive(archive, work, MANIFEST);
  } catch (error) {
    if (error instanceof ArchiveError) throw new BackupRefused(`The archive is damaged: ${error.message}`);
    throw error;
  }
  if (!extracted.kept) throw new BackupRefused("The archive has no manifest: it is not a Medanim backup, or it was cut short");
  let manifest: Manifest;
  try {
    manifest = JSON.parse(extracted.kept) as Manifest;
  } catch {
    throw new BackupRefused("The archive's manifest is not valid JSON: the archive is damaged");
  }
  if (manifest.format !== FORMAT || manifest.formatVersion !== FORMAT_VERSION) {
    throw new BackupRefused(`Not a backup this version reads (format ${String(manifest.format)} ${String(manifest.formatVersion)})`);
  }
  const problems: string[] = [];
  for (const [name, expected] of Object.entries(manifest.members)) {
    const found = extracted.digests.get(name);
    if (!found) problems.push(`${name} is missing`);
    else if (found.sha256 !== expected.sha256 || found.size !== expected.size) problems.push(`${name} does not match its sha256`);
  }
  for (const name of extracted.digests.keys()) if (name !== MANIFEST && !(name in manifest.members)) problems.push(`${name} is not in the manifest`);
  if (!(manifest.database.member in manifest.members)) problems.push(`the database (${manifest.database.member}) is missing`);
  if (problems.length)
    throw new BackupRefused(`The archive is damaged: ${problems.slice(0, 5).join("; ")}${problems.length > 5 ? ` and ${problems.length - 5} more` : ""}`);
  return manifest;
}
