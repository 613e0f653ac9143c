import { describe, expect, it } from "vitest";
import { toWellFormedInput, toWellFormedText } from "~/lib/well-formed.server.ts";

// Lone UTF-16 surrogates, which PostgreSQL refuses to store, become U+FFFD wherever input is
// decoded: JSON through lib/well-formed.server.ts, forms and queries by the platform itself;
// whole characters are left alone.

const HIGH = "\ud800";
const LOW = "\udfff";
const EMOJI = "\ud83e\udec0"; // 🫀, a valid pair

describe("toWellFormedText", () => {
  it("replaces a lone high or low surrogate, keeps pairs and plain text", () => {
    expect(toWellFormedText(`a${HIGH}b`)).toBe("a\ufffdb");
    expect(toWellFormedText(`${LOW}`)).toBe("\ufffd");
    expect(toWellFormedText(`${HIGH}${HIGH}${LOW}`)).toBe(`\ufffd${HIGH}${LOW}`);
    expect(toWellFormedText(`heart ${EMOJI}`)).toBe(`heart ${EMOJI}`);
    expect(toWellFormedText(`cut ${EMOJI.slice(0, 1)}`)).toBe("cut \ufffd");
    expect(toWellFormedText("")).toBe("");
  });
});

describe("toWellFormedInput", () => {
  it("reaches every string of a decoded JSON value, keys included, and leaves the rest as it was", () => {
    const parsed = JSON.parse('{"name":"\\ud800","list":["ok","\\udc00x"],"nested":{"\\ud801key":{"deep":"\\ud800"}},"n":1,"b":true,"z":null}');
    expect(toWellFormedInput(parsed)).toEqual({ name: "\ufffd", list: ["ok", "\ufffdx"], nested: { "\ufffdkey": { deep: "\ufffd" } }, n: 1, b: true, z: null });
    expect(toWellFormedInput(HIGH)).toBe("\ufffd");
    expect(toWellFormedInput(42)).toBe(42);
    const date = new Date(0);
    expect(toWellFormedInput({ date }).date).toBe(date);
  });
});

describe("forms and queries, which need no pass of their own", () => {
  it("FormData and URLSearchParams hold USVStrings: a lone surrogate is U+FFFD once in, files untouched", async () => {
    const form = new FormData();
    form.append(`tag${LOW}`, `hello ${HIGH}`);
    form.append("name", `Ada ${EMOJI}`);
    form.append("file", new File(["bytes"], "a.txt", { type: "text/plain" }));
    expect([...form].filter(([, value]) => typeof value === "string")).toEqual([
      ["tag\ufffd", "hello \ufffd"],
      ["name", `Ada ${EMOJI}`],
    ]);
    expect(await (form.get("file") as File).text()).toBe("bytes");
    const query = new URLSearchParams();
    query.append("search", `cut ${HIGH}`);
    expect(query.get("search")).toBe("cut \ufffd");
    // Percent-encoded, a surrogate is malformed UTF-8: each byte becomes U+FFFD.
    expect(new URL("http://localhost/api/faqs?search=%ED%A0%80").searchParams.get("search")).toBe("\ufffd\ufffd\ufffd");
  });
});
