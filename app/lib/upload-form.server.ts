import { data } from "react-router";
import { ServiceError } from "./errors.server.ts";
import { confirmUpload, discardUploads, streamMultipartUpload, type UploadKind } from "./upload.server.ts";
import { MALFORMED_FORM, readFormData } from "./form.server.ts";

// Admin forms with files, both ways a file arrives: without JavaScript the form is multipart
// and its files are streamed to storage here (each field then holds the stored path); with
// JavaScript the browser uploaded directly and the form carries the stored paths as text.

export type UploadForm = {
  formData: FormData;
  /** Paths stored by this request: discard them if the write does not happen. */
  stored: string[];
  /** Field → messages for refused files (nothing of this request was kept). */
  errors: Record<string, string[]>;
};

export async function readUploadForm(request: Request, fields: Record<string, UploadKind>): Promise<UploadForm> {
  const type = request.headers.get("content-type")?.toLowerCase() ?? "";
  const form: UploadForm = type.startsWith("multipart/form-data")
    ? await streamMultipartUpload(request, { fields }).then(
        (upload) => ({ formData: upload.formData, stored: Object.values(upload.files), errors: upload.errors }),
        // A body that does not parse as multipart is the sender's mistake, as in readFormData.
        (error) => {
          if (error instanceof ServiceError) throw data({ message: MALFORMED_FORM }, { status: 400 });
          throw error;
        },
      )
    : { formData: await readFormData(request), stored: [], errors: {} };
  // "Remove the current file" (<field>Remove) empties the field unless a new file came with it.
  for (const field of Object.keys(fields)) {
    const replaced = form.stored.includes(String(form.formData.get(field) ?? ""));
    if (form.formData.get(`${field}Remove`) === "on" && !replaced) form.formData.set(field, "");
  }
  return form;
}

/**
 * Checks every stored path a write names that differs from what the record holds: it must be a
 * finished upload of its kind. A refusal names the field.
 */
export async function confirmChangedUploads(values: Record<string, unknown>, current: Record<string, unknown>, fields: Record<string, UploadKind>) {
  for (const [field, kind] of Object.entries(fields)) {
    const value = values[field];
    if (typeof value !== "string" || !value || value === current[field]) continue;
    try {
      await confirmUpload(value, kind);
    } catch (error) {
      if (error instanceof ServiceError) throw new ServiceError(error.message, error.status === 404 ? 400 : error.status, field);
      throw error;
    }
  }
}

export { discardUploads };
