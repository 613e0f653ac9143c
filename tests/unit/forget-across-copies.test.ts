import { describe, expect, it, vi } from "vitest";

// Isolates memo.server.ts on purpose: production loads it twice, once with the server entry
// (server.ts, where the page cache listens) and once inside the server build (whose services
// call forget). vitest loads one copy, so this loads a second one to stand for the build's.

describe("forget", () => {
  it("reaches a listener registered through another copy of the module", async () => {
    const entryCopy = await import("~/lib/memo.server.ts");
    vi.resetModules();
    const buildCopy = await import("~/lib/memo.server.ts");
    expect(buildCopy).not.toBe(entryCopy);
    let heard = 0;
    entryCopy.onForget("forget-across-copies", () => (heard += 1));
    buildCopy.forget("catalogue:");
    expect(heard).toBe(1);
    // Registered again under its name (a module loaded anew), it replaces the old listener.
    buildCopy.onForget("forget-across-copies", () => (heard += 10));
    entryCopy.forget();
    expect(heard).toBe(11);
  });
});
