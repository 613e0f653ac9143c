import { z } from "zod";
import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { acceptInvitation } from "~/services/practices/practices.server.ts";
import { AcceptInvitationSchema, ALREADY_IN_A_PRACTICE, INVITATION_EXPIRED, INVITATION_NOT_FOUND } from "~/validation/practices.ts";

export const loader = apiRoute({
  POST: endpoint({
    summary: "Accept an invitation to a practice",
    description:
      "`token` is the last part of the invitation link. The caller must be signed in with the address it was sent to (403 otherwise) and belong to no practice (409). 410 when it expired, was withdrawn or was already used. The caller then holds the practice's licenses. Recorded in the audit log.",
    response: z.object({ practiceId: z.string(), practiceName: z.string(), role: z.enum(["owner", "manager", "viewer"]) }),
    auth: requireUser,
    body: AcceptInvitationSchema,
    errors: { 404: INVITATION_NOT_FOUND, 409: ALREADY_IN_A_PRACTICE, 410: INVITATION_EXPIRED },
    run: ({ user, body }) => acceptInvitation(user, body.token),
  }),
});
export const action = loader;
