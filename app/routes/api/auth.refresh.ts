import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { rotateRefreshToken } from "~/services/auth/credentials.server.ts";
import { RefreshSchema } from "~/validation/auth-forms.ts";

export const loader = apiRoute({
  POST: endpoint({ body: RefreshSchema, run: ({ body }) => rotateRefreshToken(body.refreshToken) }),
});
export const action = loader;
