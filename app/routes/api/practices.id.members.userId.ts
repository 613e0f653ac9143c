import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { changeRole, removeMember } from "~/services/practices/practices.server.ts";
import { MessageResponse } from "~/validation/api-responses.ts";
import { LAST_OWNER, MEMBER_NOT_FOUND, OWNERS_ONLY, RoleChangeSchema } from "~/validation/practices.ts";

export const loader = apiRoute({
  PATCH: endpoint({
    summary: "Change a member's role",
    description: "Owners only. 409 when it would leave the practice without an owner. Recorded in the audit log.",
    response: MessageResponse,
    auth: requireUser,
    body: RoleChangeSchema,
    errors: { 403: OWNERS_ONLY, 404: MEMBER_NOT_FOUND, 409: LAST_OWNER },
    run: async ({ user, params, body }) => {
      await changeRole(user, params.id!, params.userId!, body.role);
      return { message: "Role changed" };
    },
  }),
  DELETE: endpoint({
    summary: "Remove a member, or leave",
    description:
      "An owner removes a member; any member removes themselves (leaves). Their access to the practice's licenses ends with their next request. 409 when it would leave the practice without an owner. Recorded in the audit log.",
    response: MessageResponse,
    auth: requireUser,
    errors: { 403: OWNERS_ONLY, 404: MEMBER_NOT_FOUND, 409: LAST_OWNER },
    run: async ({ user, params }) => {
      await removeMember(user, params.id!, params.userId!);
      return { message: params.userId === user.id ? "You left the practice" : "Member removed" };
    },
  }),
});
export const action = loader;
