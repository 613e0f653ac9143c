import { afterEach, describe, expect, it, vi } from "vitest";
import { forget, memo } from "~/lib/memo.server.ts";

afterEach(() => {
  forget();
  vi.useRealTimers();
});

describe("memo", () => {
  it("loads once within the TTL, shares a pending load, and reloads after it", async () => {
    vi.useFakeTimers();
    let loads = 0;
    const load = async () => ++loads;
    const [a, b] = await Promise.all([memo("k", 1000, load), memo("k", 1000, load)]);
    expect([a, b, loads]).toEqual([1, 1, 1]);
    vi.advanceTimersByTime(999);
    expect(await memo("k", 1000, load)).toBe(1);
    vi.advanceTimersByTime(2);
    expect(await memo("k", 1000, load)).toBe(2);
  });

  it("does not keep failures, and a TTL of 0 always loads", async () => {
    let calls = 0;
    await expect(memo("fail", 1000, async () => Promise.reject(new Error(`boom ${++calls}`)))).rejects.toThrow("boom 1");
    await Promise.resolve();
    expect(await memo("fail", 1000, async () => "ok")).toBe("ok");
    let n = 0;
    expect(await memo("zero", 0, async () => ++n)).toBe(1);
    expect(await memo("zero", 0, async () => ++n)).toBe(2);
  });

  it("forgets by prefix", async () => {
    await memo("catalogue:a", 10_000, async () => 1);
    await memo("other:b", 10_000, async () => 1);
    forget("catalogue:");
    expect(await memo("catalogue:a", 10_000, async () => 2)).toBe(2);
    expect(await memo("other:b", 10_000, async () => 2)).toBe(1);
  });
});
