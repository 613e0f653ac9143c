import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { clientAddress } from "~/lib/rate-limit.server.ts";
import { getUser } from "~/services/auth/guards.server.ts";
import { submitContactMessage } from "~/services/site/content.server.ts";
import { CONTACT_SUCCESS, ContactSchema } from "~/validation/content.ts";
import { Created } from "~/validation/api-responses.ts";

// POST /api/contact: the contact form's call, with the form's messages (400) and texts.
export const loader = apiRoute({
  POST: endpoint({
    summary: "Send a message to support",
    description:
      "Stores a message to support and e-mails it to the support address. When the caller is signed in, the message is linked to their account. Limited per client address (429).",
    response: Created,
    errors: [429],
    auth: getUser,
    body: ContactSchema,
    status: 201,
    run: async ({ user, body, context }) => {
      const message = await submitContactMessage(body, user?.id ?? null, clientAddress(context));
      return { id: message.id, message: CONTACT_SUCCESS };
    },
  }),
});
export const action = loader;
