import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { updatePractice } from "~/services/practices/practices.server.ts";
import { Practice } from "~/validation/api-responses.ts";
import { MANAGERS_ONLY, PRACTICE_NOT_FOUND, PracticeSchema } from "~/validation/practices.ts";
import { practiceAnswer } from "./practices.server.ts";

export const loader = apiRoute({
  GET: {
    summary: "A practice: details, members, invitations and seats",
    description:
      "For its members only (404 for anyone else). `seats.limit` is how many people its active licenses cover; members and open invitations count against it. Owners also see the open invitations. Changes nothing.",
    response: Practice,
    auth: requireUser,
    errors: { 404: PRACTICE_NOT_FOUND },
    run: ({ user, params }) => practiceAnswer(user, params.id!),
  },
  PUT: endpoint({
    summary: "Change a practice's details",
    description:
      "Owners and managers (403 for a viewer). Invoices issued from now on are made out to the new details; issued ones keep theirs. Recorded in the audit log.",
    response: Practice,
    auth: requireUser,
    body: PracticeSchema,
    errors: { 403: MANAGERS_ONLY, 404: PRACTICE_NOT_FOUND },
    run: async ({ user, params, body }) => {
      await updatePractice(user, params.id!, body);
      return practiceAnswer(user, params.id!);
    },
  }),
});
export const action = loader;
