import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { revokeInvitation } from "~/services/practices/practices.server.ts";
import { MessageResponse } from "~/validation/api-responses.ts";
import { INVITATION_NOT_FOUND, OWNERS_ONLY } from "~/validation/practices.ts";

export const loader = apiRoute({
  DELETE: endpoint({
    summary: "Withdraw an invitation",
    description:
      "Owners only. The invitation's link stops working and its seat is free again. 404 for an invitation that is not open. Recorded in the audit log.",
    response: MessageResponse,
    auth: requireUser,
    errors: { 403: OWNERS_ONLY, 404: INVITATION_NOT_FOUND },
    run: async ({ user, params }) => {
      await revokeInvitation(user, params.id!, params.invitationId!);
      return { message: "Invitation withdrawn" };
    },
  }),
});
export const action = loader;
