import { apiRoute } from "~/lib/api-route.server.ts";
import { publicFor } from "~/lib/http-cache.server.ts";
import { getDoctor } from "~/services/catalogue/doctors.server.ts";
import { FIVE_MINUTES } from "./catalogue.server.ts";

/** GET /api/doctors/{slugOrId}: the doctor with verifiedAnimations (public fields only). */
export const loader = apiRoute({ GET: { cache: publicFor(FIVE_MINUTES), run: ({ params }) => getDoctor(params.slugOrId!) } });
export const action = loader;
