import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { LicenceAnalytics } from "~/components/account/licence-analytics.tsx";
import type { LicenceAnalyticsData } from "~/validation/playback-analytics.ts";

// The licence page's analytics drawn by the server: the chart names its numbers for assistive
// technology, and the table and the note say what a patient link's status means.

const counts = { plays: 4, viewers: 3, averageWatched: 0.675, reached25: 3, reached50: 3, reached75: 2, reached100: 2 };
const data: LicenceAnalyticsData = {
  licenceId: "00000000-0000-4000-8000-000000000001",
  days: 3,
  from: "2026-11-27",
  to: "2026-11-29",
  updatedAt: "2026-11-29T12:00:00.000Z",
  series: [
    { day: "2026-11-27", plays: 0, viewers: 0 },
    { day: "2026-11-28", plays: 1, viewers: 1 },
    { day: "2026-11-29", plays: 3, viewers: 2 },
  ],
  sources: [
    { kind: "site", host: "clinic.example", ...counts, plays: 3, viewers: 2, reached100: 1 },
    {
      kind: "link",
      linkId: "00000000-0000-4000-8000-000000000002",
      label: "Mrs K., knee",
      expiresAt: "2026-12-29T00:00:00.000Z",
      revoked: false,
      openedAt: "2026-11-28T09:00:00.000Z",
      completedAt: null,
      ...counts,
      plays: 1,
      viewers: 1,
    },
  ],
  totals: counts,
};

describe("<LicenceAnalytics>", () => {
  it("draws an accessible chart, the per-source table and the patient-link note, with the CSV link", () => {
    const html = renderToStaticMarkup(createElement(LicenceAnalytics, { data, csvHref: "/licences/x/analytics.csv" }));
    expect(html).toMatch(/<svg role="img" aria-labelledby="[^"]+-title [^"]+-desc"/);
    expect(html).toContain("<title");
    expect(html).toContain("4 plays from Nov 27, 2026 to Nov 29, 2026; most on Nov 29, 2026 (3).");
    expect(html).toContain('href="/licences/x/analytics.csv"');
    expect(html).toContain("clinic.example");
    expect(html).toContain("Mrs K., knee");
    expect(html).toContain("Opened: Nov 28, 2026");
    expect(html).toContain("Watched to the end: not yet");
    expect(html).toContain("68 %"); // average watched, 0.675
    expect(html).toContain("Your clinic may note it in the patient&#x27;s record");
  });
});
