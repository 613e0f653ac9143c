import { apiError, methodNotAllowed } from "~/lib/api.server.ts";
import { registerFaqView } from "~/services/content.server.ts";
import type { Route } from "./+types/faqs.view";

// POST /api/faqs/{id}/view: sent when an FAQ is opened (empty body).
export const loader = () => methodNotAllowed(["POST"]);

export async function action({ request, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const views = await registerFaqView(params.id);
  if (views === null) return apiError("FAQ not found", 404);
  return { views };
}
