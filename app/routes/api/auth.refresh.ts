import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { anyone } from "~/services/auth/guards.server.ts";
import { clientAddress, enforceRateLimit, REFRESH_RULE } from "~/lib/rate-limit.server.ts";
import { rotateRefreshToken } from "~/services/auth/credentials.server.ts";
import { signInClient } from "~/services/auth/device.server.ts";
import { RefreshSchema } from "~/validation/auth-forms.ts";
import { Tokens } from "~/validation/api-responses.ts";

// Unauthenticated by nature (the access token has expired): limited per client address, so a
// client cannot hammer the token table.
export const loader = apiRoute({
  POST: endpoint({
    summary: "Exchange a refresh token for a new pair (each refresh token works once)",
    description:
      "Exchanges a refresh token for a new access and refresh token; the token sent is used up. Sending a used token again revokes every token of its family (someone copied it) and answers 401. Limited per client address (429).",
    auth: anyone,
    response: Tokens,
    errors: [401, 429],
    body: RefreshSchema,
    run: async ({ request, body, context }) => {
      await enforceRateLimit(`refresh:${clientAddress(context)}`, REFRESH_RULE);
      return rotateRefreshToken(body.refreshToken, signInClient(request, context));
    },
  }),
});
export const action = loader;
