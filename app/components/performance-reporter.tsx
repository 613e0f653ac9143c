import { useEffect } from "react";
import { watchPerformance } from "~/lib/dom/performance.ts";

/** Reports slow page and video loads (lib/dom/performance.ts) on pages that hydrate. */
export function PerformanceReporter() {
  useEffect(() => watchPerformance(), []);
  return null;
}
