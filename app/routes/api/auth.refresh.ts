import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { clientAddress, enforceRateLimit, REFRESH_RULE } from "~/lib/rate-limit.server.ts";
import { rotateRefreshToken } from "~/services/auth/credentials.server.ts";
import { RefreshSchema } from "~/validation/auth-forms.ts";

// Unauthenticated by nature (the access token has expired): limited per client address, so a
// client cannot hammer the token table.
export const loader = apiRoute({
  POST: endpoint({
    body: RefreshSchema,
    run: async ({ body, context }) => {
      await enforceRateLimit(`refresh:${clientAddress(context)}`, REFRESH_RULE);
      return rotateRefreshToken(body.refreshToken);
    },
  }),
});
export const action = loader;
