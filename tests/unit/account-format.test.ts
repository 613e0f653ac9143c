import { describe, expect, it } from "vitest";
import { daysUntil, formatDate, formatMoney, isExpiringSoon } from "~/lib/format.ts";

const DAY = 24 * 60 * 60 * 1000;
const now = new Date("2026-03-01T12:00:00Z");

describe("account display helpers", () => {
  it("formatMoney always shows cents", () => {
    expect(formatMoney(99)).toBe("$99.00");
    expect(formatMoney("149.5")).toBe("$149.50");
    expect(formatMoney({ toString: () => "1234.5" })).toBe("$1,234.50");
    expect(formatMoney(null)).toBe("$0.00");
  });

  it("formatDate is the same in every time zone", () => {
    expect(formatDate("2026-03-03T23:30:00Z")).toBe("Mar 3, 2026");
    expect(formatDate(null)).toBe("");
    expect(formatDate("nonsense")).toBe("");
  });

  it("expiring soon means 30 days or less", () => {
    expect(isExpiringSoon(new Date(now.getTime() + 30 * DAY), now)).toBe(true);
    expect(isExpiringSoon(new Date(now.getTime() + 30 * DAY + 60_000), now)).toBe(false);
    expect(isExpiringSoon(new Date(now.getTime() + DAY), now)).toBe(true);
    expect(isExpiringSoon(null, now)).toBe(false);
    expect(daysUntil(new Date(now.getTime() + 2.5 * DAY), now)).toBe(3);
  });
});
