import { z } from "zod";
import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { publicFor } from "~/lib/http-cache.server.ts";
import { anyone, requireAdmin } from "~/services/auth/guards.server.ts";
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
    description:
      "The active doctors who verify animations, by name, with their public profile fields. The same for every caller (cached 5 minutes). Changes nothing.",
    auth: anyone,
    response: z.array(Doctor),
    cache: publicFor(FIVE_MINUTES),
    run: () => listDoctors(),
  },
  POST: endpoint({
    summary: "Create a doctor (admins)",
    description: "Adds a doctor (name, specialty, slug, description, photo, website) and records it in the audit log. 409 when the slug is taken.",
    response: AdminDoctor,
    errors: [409],
    auth: requireAdmin,
    body: DoctorSchema,
    status: 201,
    run: ({ user, body }) => createDoctor(user, body),
  }),
});
export const action = loader;
