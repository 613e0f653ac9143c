import { adminApiGuard } from "~/services/auth/guards.server.ts";

// The parent of every /api/admin/* call in app/routes.ts: its middleware refuses anyone but an
// admin before the call's own handler runs (decision 008).
export const middleware = [adminApiGuard];
