import { z } from "zod";
import { apiRoute, endpoint } from "~/lib/api-route.server.ts";
import { createUploadUrl, UPLOAD_KINDS } from "~/lib/upload.server.ts";
import { requireAdmin } from "~/services/auth/guards.server.ts";
import { UploadTarget } from "~/validation/api-responses.ts";

// POST /api/objects/upload: an admin asks where to PUT a
// file; the stored path becomes /objects/uploads/{last segment of the URL without query}.

// The admin form's field names are accepted as well as the kinds.
const KIND_ALIASES: Record<string, string> = {
  coverImage: "cover",
  image: "cover",
  fullVideo: "video",
  downloadFile: "download",
  photo: "doctor-photo",
  doctorPhoto: "doctor-photo",
};

const UploadRequestSchema = z.object({
  kind: z.preprocess((value) => (typeof value === "string" ? (KIND_ALIASES[value] ?? value) : value), z.enum(UPLOAD_KINDS, { error: "Unknown upload kind" })),
  fileName: z.string({ error: "File name is required" }).trim().min(1, "File name is required").max(255),
  contentType: z.string().max(255).optional(),
  size: z.coerce.number().int().nonnegative().optional(),
});

export const loader = apiRoute({
  POST: endpoint({
    summary: "Where to PUT a file before saving it on an animation or doctor (admins)",
    description:
      "Answers a URL to PUT a file to (a cover, thumbnail, video, download, caption or doctor photo, checked against that kind's types and size: 413 when too large) and the path to save on the animation or doctor afterwards. Nothing is stored until the file is PUT.",
    response: UploadTarget,
    errors: [413],
    auth: requireAdmin,
    body: UploadRequestSchema,
    run: async ({ body, url }) => {
      const { uploadURL, path } = await createUploadUrl(body, url.origin);
      return { uploadURL, path };
    },
  }),
});
export const action = loader;
