import { apiErrorResponse } from "~/lib/api-route.server.ts";
import { notFound } from "~/lib/errors.server.ts";

// Unknown /api paths answer JSON, not the HTML 404 screen, whatever the method.
export const loader = () => apiErrorResponse(notFound("Not found"));
export const action = loader;
