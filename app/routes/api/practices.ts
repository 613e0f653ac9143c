import { z } from "zod";
import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { createPractice, getMembership } from "~/services/practices/practices.server.ts";
import { Practice, PracticeSummary } from "~/validation/api-responses.ts";
import { ALREADY_IN_A_PRACTICE, PracticeSchema } from "~/validation/practices.ts";
import { practiceAnswer } from "./practices.server.ts";

export const loader = apiRoute({
  GET: {
    summary: "The caller's practice",
    description:
      "`practice`: the practice the caller belongs to, with the caller's role; null for a member of none. A member belongs to at most one practice. Changes nothing.",
    response: z.object({ practice: PracticeSummary.nullable() }),
    auth: requireUser,
    run: async ({ user }) => {
      const membership = await getMembership(user.id);
      return { practice: membership && { id: membership.practiceId, legalName: membership.practice.legalName, role: membership.role } };
    },
  },
  POST: endpoint({
    summary: "Create a practice",
    description:
      "The caller founds a practice (legal name, address, country, VAT or tax id, billing e-mail) and becomes its owner. Licenses bought for it are used by all its members; its invoices are made out to these details. An EU country's VAT number must carry its country prefix. 409 when the caller already belongs to a practice. Recorded in the audit log.",
    status: 201,
    response: Practice,
    auth: requireUser,
    body: PracticeSchema,
    errors: { 409: ALREADY_IN_A_PRACTICE },
    run: async ({ user, body }) => practiceAnswer(user, (await createPractice(user, body)).id),
  }),
});
export const action = loader;
