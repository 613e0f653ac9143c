import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseParams } from "~/lib/params.server.ts";

const IdParams = z.object({ id: z.string().regex(/^[0-9a-f-]{36}$/) });

describe("parseParams", () => {
  it("returns the typed values when the params fit the schema", () => {
    const id = "0b7c6f1e-6c1f-4c55-9a57-0d3c2a9d5b11";
    expect(parseParams({ id }, IdParams)).toEqual({ id });
  });

  it("throws a 404 { message } when they do not", () => {
    let thrown: unknown;
    try {
      parseParams({ id: "not-an-id" }, IdParams, "Animation not found");
    } catch (error) {
      thrown = error;
    }
    // What `data()` builds: the error boundary renders it as a 404 with that message.
    expect(thrown).toMatchObject({ data: { message: "Animation not found" }, init: { status: 404 } });
  });
});
