import { prisma } from "~/lib/db.server.ts";
import { canDownload, downloadLicence, getAccess } from "../licensing/access.server.ts";
import { loadViewer, OBJECT_MESSAGES, PROTECTED_CACHE_CONTROL, type MediaCredentials } from "./delivery.server.ts";
import { animationForDownload, loadPackage, type LicencePackage, type PackedFile } from "./packages.server.ts";

// Who gets a licence package or one of its files (the download right: an individual or category
// licence held by the member or their practice, or an admin), and the record of each download.

export type PackageDelivery =
  | { ok: false; status: 401 | 403 | 404; message: string }
  | {
      ok: true;
      pkg: LicencePackage;
      /** One file of the package; absent for the whole ZIP. */
      file?: PackedFile;
      cacheControl: string;
      /** Who downloads, under which licence: what the Download row records. */
      record: { userId: string; animationId: string; subscriptionId: string | null; file: string };
    };

const refuse = (status: 401 | 403 | 404) => ({ ok: false as const, status, message: OBJECT_MESSAGES[status] });

/**
 * The package of the animation `slug` (or its file `fileName`) for the bearer of `credentials`.
 * Only someone with the right learns whether the animation or the file exists.
 */
export async function getPackageDelivery(slug: string, fileName: string | null, credentials: MediaCredentials, origin: string): Promise<PackageDelivery> {
  const viewer = await loadViewer(credentials)();
  if (!viewer) return refuse(401);
  const animation = await animationForDownload(slug);
  const access = viewer.access ?? (await getAccess(viewer));
  if (!animation) return refuse(viewer.role === "admin" ? 404 : 403);
  if (viewer.role !== "admin" && !canDownload(access, animation)) return refuse(403);
  const pkg = await loadPackage(animation.id, { origin });
  if (!pkg) return refuse(404);
  const file = fileName === null ? undefined : pkg.files.find((f) => f.name === fileName);
  if (fileName !== null && !file) return refuse(404);
  return {
    ok: true,
    pkg,
    file,
    cacheControl: PROTECTED_CACHE_CONTROL,
    record: { userId: viewer.id, animationId: animation.id, subscriptionId: downloadLicence(access, animation)?.id ?? null, file: file?.name ?? "package" },
  };
}

export async function recordDownload(
  record: Extract<PackageDelivery, { ok: true }>["record"],
  sent: { bytes: number; rangeStart: number | null; complete: boolean },
) {
  await prisma.download.create({
    data: { ...record, bytes: BigInt(sent.bytes), rangeStart: sent.rangeStart === null ? null : BigInt(sent.rangeStart), complete: sent.complete },
  });
}

export type DownloadTotals = { count: number; bytes: number; lastAt: Date | null };

/** How much was downloaded under each licence (by anyone holding it): what billing shows beside the licence. One query. */
export async function downloadTotals(subscriptionIds: string[]): Promise<Map<string, DownloadTotals>> {
  if (!subscriptionIds.length) return new Map();
  const rows = await prisma.download.groupBy({
    by: ["subscriptionId"],
    where: { subscriptionId: { in: subscriptionIds } },
    _count: { _all: true },
    _sum: { bytes: true },
    _max: { createdAt: true },
  });
  return new Map(rows.map((r) => [r.subscriptionId!, { count: r._count._all, bytes: Number(r._sum.bytes ?? 0), lastAt: r._max.createdAt }]));
}

/**
 * How many different files (a whole package counts as one) were downloaded under a licence since
 * `since`: what a refund of that licence's payment has to be confirmed against. One query.
 */
export async function downloadedFileCount(subscriptionId: string, since: Date): Promise<number> {
  const [row] = await prisma.$queryRaw<{ files: number }[]>`
    SELECT count(DISTINCT ("animationId", "file"))::int AS "files" FROM "Download"
    WHERE "subscriptionId" = ${subscriptionId}::uuid AND "createdAt" >= ${since}`;
  return row?.files ?? 0;
}
