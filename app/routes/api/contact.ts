import { data } from "react-router";
import { apiError, methodNotAllowed, parseBody } from "~/lib/api.server.ts";
import { logger } from "~/lib/logger.server.ts";
import { clientAddress, consumeRateLimit, tooManyAttemptsMessage } from "~/lib/rate-limit.server.ts";
import { getUser } from "~/services/auth/guards.server.ts";
import { CONTACT_RULE, submitContactMessage } from "~/services/content.server.ts";
import { CONTACT_FAILURE, CONTACT_SUCCESS, ContactSchema } from "~/validation/content.ts";
import type { Route } from "./+types/contact";

// POST /api/contact: the contact form's call, with the form's messages (400) and texts.
export const loader = () => methodNotAllowed(["POST"]);

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const input = await parseBody(request, ContactSchema);
  const limit = await consumeRateLimit(`contact:${clientAddress(context)}`, CONTACT_RULE);
  if (!limit.allowed) return apiError(tooManyAttemptsMessage(limit.retryAfterSeconds), 429, undefined, limit.retryAfterSeconds);
  const user = await getUser(request);
  try {
    const message = await submitContactMessage(input, user?.id ?? null);
    return data({ id: message.id, message: CONTACT_SUCCESS }, { status: 201 });
  } catch (error) {
    logger.error({ err: error }, "contact message not stored");
    return apiError(CONTACT_FAILURE, 500);
  }
}
