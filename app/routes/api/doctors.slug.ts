import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { publicFor } from "~/lib/http-cache.server.ts";
import { anyone, requireAdmin } from "~/services/auth/guards.server.ts";
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
    description: "One active doctor by slug or id, with the public profile and the active animations they verified. Changes nothing.",
    auth: anyone,
    response: DoctorProfile,
    cache: publicFor(FIVE_MINUTES),
    run: ({ params }) => getDoctor(params.slugOrId!),
  },
  PUT: endpoint({
    summary: "Update a doctor (admins)",
    description: "Replaces a doctor's profile fields and records the change in the audit log. 409 when the new slug is taken.",
    response: AdminDoctor,
    errors: [409],
    auth: requireAdmin,
    body: DoctorSchema,
    run: ({ user, params, body }) => updateDoctor(user, params.slugOrId!, body),
  }),
  DELETE: endpoint({
    summary: "Delete a doctor (admins)",
    description: "Deletes a doctor and records it in the audit log; the animations they verified stay, without them.",
    response: MessageResponse,
    auth: requireAdmin,
    run: async ({ user, params }) => {
      await deleteDoctor(user, params.slugOrId!);
      return { message: "Doctor deleted" };
    },
  }),
});
export const action = loader;
