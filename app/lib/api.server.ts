import { data } from "react-router";
import type { z } from "zod";

/** The /api error shape: `{ message }` with the right status, plus field errors when useful. */
export function apiError(message: string, status: number, extra?: Record<string, unknown>, retryAfterSeconds?: number) {
  const headers = retryAfterSeconds ? { "Retry-After": String(retryAfterSeconds) } : undefined;
  return data({ message, ...extra }, { status, headers });
}

/**
 * Reads a JSON body (or a form body, for simple clients) and validates it. Anything unreadable
 * or invalid throws a 400 with the schema's first message, never a 500.
 */
export async function parseBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  let body: unknown = {};
  const type = request.headers.get("content-type") ?? "";
  try {
    if (type.includes("application/json")) {
      const text = await request.text();
      body = text ? JSON.parse(text) : {};
    } else if (type.includes("form")) {
      body = Object.fromEntries(await request.formData());
    } else {
      const text = await request.text();
      body = text ? JSON.parse(text) : {};
    }
  } catch {
    throw apiError("Request body must be valid JSON", 400);
  }
  const result = schema.safeParse(body);
  if (!result.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of result.error.issues) {
      const key = issue.path.join(".") || "form";
      (errors[key] ??= []).push(issue.message);
    }
    throw apiError(result.error.issues[0]?.message ?? "Invalid input", 400, { errors });
  }
  return result.data;
}

export function methodNotAllowed(allowed: string[]) {
  return data({ message: "Method not allowed" }, { status: 405, headers: { Allow: allowed.join(", ") } });
}
