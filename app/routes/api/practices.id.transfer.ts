import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { transferOwnership } from "~/services/practices/practices.server.ts";
import { MessageResponse } from "~/validation/api-responses.ts";
import { MEMBER_NOT_FOUND, OWNERS_ONLY, TransferSchema } from "~/validation/practices.ts";

export const loader = apiRoute({
  POST: endpoint({
    summary: "Transfer ownership of a practice",
    description: "Owners only. `userId` (a member) becomes an owner and the caller a manager. Recorded in the audit log.",
    response: MessageResponse,
    auth: requireUser,
    body: TransferSchema,
    errors: { 403: OWNERS_ONLY, 404: MEMBER_NOT_FOUND },
    run: async ({ user, params, body }) => {
      await transferOwnership(user, params.id!, body.userId);
      return { message: "Ownership transferred" };
    },
  }),
});
export const action = loader;
