import { describe, expect, it } from "vitest";
import {
  formatCount,
  formatDuration,
  formatPrice,
  formatYearlyPrice,
  formatSeconds,
  instagramLink,
  isDescriptionHeading,
  parseDescription,
  pluralize,
  truncateText,
} from "~/lib/format.ts";

describe("formatDuration (m:ss)", () => {
  it.each([
    [0, "0:00"],
    [5, "0:05"],
    [60, "1:00"],
    [125, "2:05"],
    [3600, "60:00"],
    [59.9, "0:59"],
    [-3, "0:00"],
    [null, "0:00"],
  ])("%s → %s", (input, expected) => {
    expect(formatDuration(input)).toBe(expected);
  });
});

describe("formatSeconds", () => {
  it("shows whole seconds with an s", () => {
    expect(formatSeconds(125)).toBe("125s");
    expect(formatSeconds(undefined)).toBe("0s");
  });
});

describe("formatPrice", () => {
  it.each([
    [299, "$299"],
    ["299.00", "$299"],
    [12.5, "$12.50"],
    [1999, "$1,999"],
    [{ toString: () => "99.99" }, "$99.99"],
    ["abc", "$0"],
    [null, "$0"],
  ])("%s → %s", (input, expected) => {
    expect(formatPrice(input)).toBe(expected);
  });
});

describe("formatYearlyPrice", () => {
  it.each([
    [299, "$299/year"],
    [12.5, "$12.50/year"],
    ["1999", "$1,999/year"],
  ])("%s → %s", (input, expected) => {
    expect(formatYearlyPrice(input)).toBe(expected);
  });
});

describe("description heading heuristic", () => {
  it("accepts short capitalised lines of letters and spaces", () => {
    expect(isDescriptionHeading("Overview")).toBe(true);
    expect(isDescriptionHeading("  Recovery Time  ")).toBe(true);
    expect(isDescriptionHeading("Über Anatomie")).toBe(true);
    expect(isDescriptionHeading("A".repeat(50))).toBe(true);
  });

  it("rejects long, lowercase, punctuated or numbered lines", () => {
    expect(isDescriptionHeading("A".repeat(51))).toBe(false);
    expect(isDescriptionHeading("overview")).toBe(false);
    expect(isDescriptionHeading("Overview.")).toBe(false);
    expect(isDescriptionHeading("Step 1")).toBe(false);
    expect(isDescriptionHeading("")).toBe(false);
  });

  it("splits a description into headings and paragraphs", () => {
    expect(parseDescription("Overview\nThe nose is reshaped.\nIt takes an hour.\n\nRecovery\nTwo weeks.")).toEqual([
      { kind: "heading", text: "Overview" },
      { kind: "paragraph", text: "The nose is reshaped.\nIt takes an hour." },
      { kind: "heading", text: "Recovery" },
      { kind: "paragraph", text: "Two weeks." },
    ]);
  });
});

describe("text helpers", () => {
  it("truncates at the limit with an ellipsis and leaves short text alone", () => {
    expect(truncateText("short", 300)).toBe("short");
    const long = "x".repeat(301);
    expect(truncateText(long, 300)).toBe(`${"x".repeat(300)}...`);
  });

  it("pluralizes and formats counts", () => {
    expect(pluralize(1, "animation")).toBe("1 animation");
    expect(pluralize(0, "animation")).toBe("0 animations");
    expect(pluralize(1200, "view")).toBe("1,200 views");
    expect(formatCount(12345)).toBe("12,345");
    expect(formatCount(1234567.8)).toBe("1,234,567");
    expect(formatCount(999)).toBe("999");
    expect(pluralize(-1234, "view")).toBe("-1,234 views");
  });

  it("turns an Instagram handle or link into a profile link", () => {
    expect(instagramLink("@janesmith")).toEqual({ href: "https://instagram.com/janesmith", label: "@janesmith" });
    expect(instagramLink("janesmith")).toEqual({ href: "https://instagram.com/janesmith", label: "@janesmith" });
    expect(instagramLink("https://www.instagram.com/dr.jane/")).toEqual({ href: "https://www.instagram.com/dr.jane/", label: "@dr.jane" });
  });
});

describe("formatCompact (admin dashboard: K above 1,000 and M above 1,000,000, one decimal)", () => {
  it("abbreviates", async () => {
    const { formatCompact } = await import("~/lib/format.ts");
    expect(formatCompact(950)).toBe("950");
    expect(formatCompact(1000)).toBe("1.0K");
    expect(formatCompact(1550)).toBe("1.6K");
    expect(formatCompact(999_999)).toBe("1.0M");
    expect(formatCompact(999_940)).toBe("999.9K");
    expect(formatCompact(2_340_000)).toBe("2.3M");
    expect(formatCompact(12.5)).toBe("12.50");
  });
});

describe("formatFileSize (download lists: steps of 1024, one decimal below 10)", () => {
  it.each([
    [0, "0 B"],
    [812, "812 B"],
    [1024, "1 KB"],
    [1536, "1.5 KB"],
    [4.2 * 1024 * 1024, "4.2 MB"],
    [37.4 * 1024 * 1024, "37 MB"],
    [1024 * 1024 - 300, "1 MB"],
    [3 * 1024 ** 3, "3 GB"],
  ])("%s bytes → %s", async (bytes, expected) => {
    const { formatFileSize } = await import("~/lib/format.ts");
    expect(formatFileSize(bytes)).toBe(expected);
  });
});
