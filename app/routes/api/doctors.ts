import { listDoctors } from "~/services/catalogue/doctors.server.ts";
import type { Route } from "./+types/doctors";
import { catalogueJson, FIVE_MINUTES, publicFor } from "./catalogue.server.ts";

/** GET /api/doctors: active doctors by name. */
export async function loader({ request }: Route.LoaderArgs) {
  return catalogueJson(request, publicFor(FIVE_MINUTES), () => listDoctors());
}
