import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { publicFor } from "~/lib/http-cache.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { getDoctor } from "~/services/catalogue/doctors.server.ts";
import { deleteDoctor, updateDoctor } from "~/services/catalogue/doctor-admin.server.ts";
import { DoctorSchema } from "~/validation/admin-catalogue.ts";
import { FIVE_MINUTES } from "./catalogue.server.ts";
import { DoctorProfile, MessageResponse } from "~/validation/api-responses.ts";
import { AdminDoctor } from "~/validation/api-responses-admin.ts";

/**
 * GET /api/doctors/{slugOrId}: the doctor with verifiedAnimations (public fields only).
 * PUT and DELETE /api/doctors/{id} (admins): update with the doctor fields, or delete.
 */
export const loader = apiRoute({
  GET: {
    summary: "A doctor with the animations they verified",
    response: DoctorProfile, cache: publicFor(FIVE_MINUTES), run: ({ params }) => getDoctor(params.slugOrId!) },
  PUT: endpoint({
    summary: "Update a doctor (admins)",
    response: AdminDoctor,
    errors: [409],
    auth: requireAdmin,
    body: DoctorSchema,
    run: ({ user, params, body }) => updateDoctor(user, params.slugOrId!, body),
  }),
  DELETE: endpoint({
    summary: "Delete a doctor (admins)",
    response: MessageResponse,
    auth: requireAdmin,
    run: async ({ user, params }) => {
      await deleteDoctor(user, params.slugOrId!);
      return { message: "Doctor deleted" };
    },
  }),
});
export const action = loader;
