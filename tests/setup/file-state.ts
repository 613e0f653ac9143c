import { vi } from "vitest";
import { dropAllCaches } from "~/lib/cache-registry.server.ts";
import { stopJobQueue } from "~/lib/jobs.server.ts";
import { resetMailTransport } from "~/lib/mail.server.ts";
import { setPaymentProvider } from "~/lib/payments/index.server.ts";
import { flushViewCounts } from "~/services/catalogue/views.server.ts";

// The integration files share their worker's loaded modules (vitest.config.ts, `isolate: false`:
// importing the app once per worker instead of once per file halved the suite's CPU time). What
// those modules hold for one file, beyond its database, is put back here before the next file.

const cleanups: Array<() => unknown> = [];

/** Runs `cleanup` when the current test file ends (a test helper's server, say). */
export function onFileEnd(cleanup: () => unknown) {
  cleanups.push(cleanup);
}

/** Before the file's database closes: nothing of this file may run or wait on it afterwards. */
export async function endFile() {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await stopJobQueue(5_000);
  await flushViewCounts().catch(() => undefined);
  resetMailTransport();
  setPaymentProvider(null);
  // The next file has a database of its own: nothing kept from this one may answer it.
  dropAllCaches();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
}
