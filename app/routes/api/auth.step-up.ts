import { z } from "zod";
import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { clientAddress } from "~/lib/rate-limit.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { STEP_UP_WINDOW_MS, stepUpWithCode } from "~/services/auth/step-up.server.ts";
import { SecondFactorCodeSchema } from "~/validation/auth-forms.ts";

const StepUpResponse = z.object({ message: z.string(), stepUpUntil: z.string().describe("ISO 8601: protected calls need no new code until then") });

export const loader = apiRoute({
  POST: endpoint({
    summary: "Step-up: confirm a second factor for the protected admin calls",
    description:
      "Confirms a code from the authenticator app (or a recovery code) for the caller's token family. For 10 minutes afterwards the calls that answer 403 with `stepUpRequired: true` (roles, blocking, refunds, prices, settings, campaigns, deleting an animation) are allowed. A sign-in through POST /api/auth/mfa/verify counts as one. Wrong codes are limited per account and per client address (429).",
    auth: requireUser,
    response: StepUpResponse,
    errors: [429],
    body: z.object({ code: SecondFactorCodeSchema }),
    run: async ({ request, body, context }) => {
      await stepUpWithCode(request, body.code, clientAddress(context));
      return { message: "Second factor confirmed", stepUpUntil: new Date(Date.now() + STEP_UP_WINDOW_MS).toISOString() };
    },
  }),
});
export const action = loader;
