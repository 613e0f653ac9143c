import { data } from "react-router";

/**
 * The one error a user can cause: a message in the product's own words (docs/architecture.md,
 * "Errors and messages"), the HTTP status it deserves, and the form field it belongs to (when
 * it belongs to one). Services throw it; the form adapter (`lib/form.server.ts`) and the /api
 * adapter (`lib/api-route.server.ts`) turn it into a conform reply or `{ message, errors? }`.
 */
export class ServiceError extends Error {
  constructor(
    message: string,
    public readonly status = 400,
    public readonly field?: string,
    /** For 429: seconds until the limit lets the caller try again (sent as Retry-After). */
    public readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "ServiceError";
  }
}

export const notFound = (message: string, field?: string) => new ServiceError(message, 404, field);
export const conflict = (message: string, field?: string) => new ServiceError(message, 409, field);
export const forbidden = (message: string) => new ServiceError(message, 403);
export const tooManyRequests = (message: string, retryAfterSeconds: number) => new ServiceError(message, 429, undefined, retryAfterSeconds);

/**
 * For loaders: "not found" and "not yours" in one line. Throws `{ message }` with the status,
 * which the error boundary (HTML) or the /api adapter (JSON) renders.
 */
export function invariantResponse(condition: unknown, message: string, init: { status: number } = { status: 400 }): asserts condition {
  if (!condition) throw data({ message }, init);
}

/**
 * For loaders: a ServiceError becomes the route's error response (`{ message }` with its
 * status, rendered by the error boundary: 404 → the not-found screen); anything else is
 * rethrown. `await getDoctor(slug).catch(asRouteError)`.
 */
export function asRouteError(error: unknown): never {
  if (error instanceof ServiceError) throw data({ message: error.message }, { status: error.status });
  throw error;
}
