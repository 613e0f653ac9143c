import { z } from "zod";
import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { publicFor } from "~/lib/http-cache.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { listDoctors } from "~/services/catalogue/doctors.server.ts";
import { createDoctor } from "~/services/catalogue/doctor-admin.server.ts";
import { DoctorSchema } from "~/validation/admin-catalogue.ts";
import { FIVE_MINUTES } from "./catalogue.server.ts";
import { Doctor } from "~/validation/api-responses.ts";
import { AdminDoctor } from "~/validation/api-responses-admin.ts";

/** GET /api/doctors: active doctors by name. POST (admins): create one → 201 with the doctor. */
export const loader = apiRoute({
  GET: {
    summary: "Active doctors by name",
    response: z.array(Doctor), cache: publicFor(FIVE_MINUTES), run: () => listDoctors() },
  POST: endpoint({
    summary: "Create a doctor (admins)",
    response: AdminDoctor,
    errors: [409],
    auth: requireAdmin,
    body: DoctorSchema,
    status: 201,
    run: ({ user, body }) => createDoctor(user, body),
  }),
});
export const action = loader;
