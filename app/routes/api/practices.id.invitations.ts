import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { inviteMember } from "~/services/practices/practices.server.ts";
import { PracticeInvitation } from "~/validation/api-responses.ts";
import { INVITATION_DAYS, INVITEE_IN_ANOTHER_PRACTICE, InvitationSchema, OWNERS_ONLY, PRACTICE_NOT_FOUND } from "~/validation/practices.ts";

export const loader = apiRoute({
  POST: endpoint({
    summary: "Invite someone to a practice",
    description: `Owners only. E-mails a link that works for ${INVITATION_DAYS} days to the address; whoever accepts it must be signed in with that address. \`role\` is owner, manager or viewer (default viewer). A new invitation to the same address replaces the open one. 409 when the person is already a member of this or another practice, or when members and open invitations already fill the seats of the practice's licenses. Recorded in the audit log.`,
    status: 201,
    response: PracticeInvitation,
    auth: requireUser,
    body: InvitationSchema,
    errors: { 403: OWNERS_ONLY, 404: PRACTICE_NOT_FOUND, 409: INVITEE_IN_ANOTHER_PRACTICE },
    run: ({ user, params, body }) => inviteMember(user, params.id!, body),
  }),
});
export const action = loader;
