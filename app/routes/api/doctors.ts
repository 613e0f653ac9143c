import { apiRoute } from "~/lib/api-route.server.ts";
import { publicFor } from "~/lib/http-cache.server.ts";
import { listDoctors } from "~/services/catalogue/doctors.server.ts";
import { FIVE_MINUTES } from "./catalogue.server.ts";

/** GET /api/doctors: active doctors by name. */
export const loader = apiRoute({ GET: { cache: publicFor(FIVE_MINUTES), run: () => listDoctors() } });
export const action = loader;
