import { describe, expect, it } from "vitest";
import { toWellFormedFormData, toWellFormedInput, toWellFormedText } from "~/lib/well-formed.server.ts";

// Lone UTF-16 surrogates, which PostgreSQL refuses to store, become U+FFFD wherever input is
// decoded (lib/well-formed.server.ts); whole characters are left alone.

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

describe("toWellFormedFormData", () => {
  it("replaces lone surrogates in names and text values, keeps files and repeated fields", async () => {
    const form = new FormData();
    form.append("message", `hello ${HIGH}`);
    form.append(`tag${LOW}`, "x");
    form.append("tag", "a");
    form.append("tag", "b");
    form.append("file", new File(["bytes"], "a.txt", { type: "text/plain" }));
    const clean = toWellFormedFormData(form);
    expect(clean.get("message")).toBe("hello \ufffd");
    expect(clean.get("tag\ufffd")).toBe("x");
    expect(clean.getAll("tag")).toEqual(["a", "b"]);
    const file = clean.get("file") as File;
    expect(file.name).toBe("a.txt");
    expect(await file.text()).toBe("bytes");
  });

  it("hands back a form that is already well formed as it is", () => {
    const form = new FormData();
    form.append("name", `Ada ${EMOJI}`);
    expect(toWellFormedFormData(form)).toBe(form);
  });
});
