import { describe, expect, it } from "vitest";
import { scheduleWords } from "~/components/admin/backup-panel.tsx";

// The dashboard says a daily backup time in words; any other cron is shown as written.
describe("scheduleWords", () => {
  it("says a daily time in words", () => {
    expect(scheduleWords("0 3 * * *")).toBe("Runs daily at 03:00 UTC");
    expect(scheduleWords("30 23 * * *")).toBe("Runs daily at 23:30 UTC");
  });
  it("shows other schedules as cron", () => {
    expect(scheduleWords("*/30 * * * *")).toBe("Runs on the schedule */30 * * * * (cron, UTC)");
    expect(scheduleWords("0 3 * * 1")).toBe("Runs on the schedule 0 3 * * 1 (cron, UTC)");
  });
});
