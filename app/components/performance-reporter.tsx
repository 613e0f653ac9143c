import { useEffect } from "react";

// Spec section 7: a page load over 3000 ms is reported (failures ignored, never retried).
const SLOW_PAGE_LOAD_MS = 3000;

export function reportPerformance(kind: "log" | "page-load" | "video-load", body: Record<string, unknown>) {
  try {
    const payload = JSON.stringify({ ...body, url: location.href, userAgent: navigator.userAgent });
    if (!navigator.sendBeacon?.(`/api/performance/${kind}`, payload)) {
      void fetch(`/api/performance/${kind}`, { method: "POST", body: payload, keepalive: true }).catch(() => {});
    }
  } catch {
    // Reporting must never break the page.
  }
}

/** Measures the first page load once the browser has finished it. */
export function PerformanceReporter() {
  useEffect(() => {
    function measure() {
      const [nav] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
      if (!nav || nav.loadEventEnd <= 0 || nav.loadEventEnd < SLOW_PAGE_LOAD_MS) return;
      const paint = (name: string) => performance.getEntriesByName(name)[0]?.startTime ?? null;
      reportPerformance("page-load", {
        pageLoad: Math.round(nav.loadEventEnd),
        domContentLoaded: Math.round(nav.domContentLoadedEventEnd),
        firstPaint: paint("first-paint"),
        firstContentfulPaint: paint("first-contentful-paint"),
      });
    }
    if (document.readyState === "complete") setTimeout(measure, 0);
    else window.addEventListener("load", () => setTimeout(measure, 0), { once: true });
  }, []);
  return null;
}
