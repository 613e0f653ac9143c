import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { ServiceError } from "~/lib/errors.server.ts";
import { logger } from "~/lib/logger.server.ts";
import { clientAddress, enforceRateLimit } from "~/lib/rate-limit.server.ts";
import { getUser } from "~/services/auth/guards.server.ts";
import { CONTACT_RULE, submitContactMessage } from "~/services/content.server.ts";
import { CONTACT_FAILURE, CONTACT_SUCCESS, ContactSchema } from "~/validation/content.ts";

// POST /api/contact: the contact form's call, with the form's messages (400) and texts.
export const loader = apiRoute({
  POST: endpoint({
    auth: getUser,
    body: ContactSchema,
    status: 201,
    run: async ({ user, body, context }) => {
      await enforceRateLimit(`contact:${clientAddress(context)}`, CONTACT_RULE);
      try {
        const message = await submitContactMessage(body, user?.id ?? null);
        return { id: message.id, message: CONTACT_SUCCESS };
      } catch (error) {
        logger.error({ err: error }, "contact message not stored");
        throw new ServiceError(CONTACT_FAILURE, 500);
      }
    },
  }),
});
export const action = loader;
