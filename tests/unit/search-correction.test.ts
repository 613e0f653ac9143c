import { describe, expect, it } from "vitest";
import { correctWord, searchWords, trigramSimilarity } from "~/services/catalogue/search.server.ts";

const vocabulary = new Map([
  ["face", 3],
  ["facelift", 1],
  ["rhinoplasty", 2],
  ["cardiac", 1],
  ["cardiology", 1],
  ["catheterization", 1],
  ["lift", 2],
]);

describe("correctWord", () => {
  it.each([
    ["rhinoplsty", "rhinoplasty"],
    ["facelfit", "facelift"],
    ["cardiak", "cardiac"],
    ["cathetrization", "catheterization"],
  ])("corrects %s to %s", (typed, meant) => {
    expect(correctWord(typed, vocabulary)).toBe(meant);
  });

  it("prefers fewer edits over more shared trigrams (facelfit shares more with face)", () => {
    expect(trigramSimilarity("facelfit", "face")).toBeGreaterThan(trigramSimilarity("facelfit", "facelift"));
    expect(correctWord("facelfit", vocabulary)).toBe("facelift");
  });

  it("leaves short words, numbers and words far from every vocabulary word alone", () => {
    expect(correctWord("lit", vocabulary)).toBeNull();
    expect(correctWord("2024", vocabulary)).toBeNull();
    expect(correctWord("zzzz", vocabulary)).toBeNull();
    expect(correctWord("recovery", vocabulary)).toBeNull();
  });

  it("matches pg_trgm's similarity for a known pair", () => {
    // SELECT similarity('rhinoplsty', 'rhinoplasty') = 0.64285713
    expect(trigramSimilarity("rhinoplsty", "rhinoplasty")).toBeCloseTo(9 / 14, 5);
  });
});

describe("searchWords", () => {
  it("lowercases, splits on anything but letters and digits, drops short and stop words, keeps each once", () => {
    expect(searchWords("Deep-plane FACELIFT: recovery after the facelift, 2 of 3")).toEqual(["deep", "plane", "facelift", "recovery"]);
    expect(searchWords("%_'; --")).toEqual([]);
  });
});
