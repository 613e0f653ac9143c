import type { z } from "zod";
import { invariantResponse } from "./errors.server.ts";

/**
 * Route params checked, not cast: the values `schema` describes, or a 404 `{ message }` when
 * the URL does not fit it (a malformed id is a page that does not exist, not a server error).
 */
export function parseParams<Schema extends z.ZodType>(params: unknown, schema: Schema, message = "Not found"): z.output<Schema> {
  const result = schema.safeParse(params);
  invariantResponse(result.success, message, { status: 404 });
  return result.data;
}
