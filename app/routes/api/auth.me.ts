import { apiRoute } from "~/lib/api-route.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";

export const loader = apiRoute({ GET: { auth: requireUser, run: ({ user }) => ({ user }) } });
export const action = loader;
