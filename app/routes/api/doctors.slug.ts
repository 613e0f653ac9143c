import { getDoctor } from "~/services/catalogue/doctors.server.ts";
import type { Route } from "./+types/doctors.slug";
import { catalogueJson, FIVE_MINUTES, publicFor } from "./catalogue.server.ts";

/** GET /api/doctors/{slugOrId}: the doctor with verifiedAnimations (public fields only). */
export async function loader({ request, params }: Route.LoaderArgs) {
  return catalogueJson(request, publicFor(FIVE_MINUTES), () => getDoctor(params.slugOrId));
}
