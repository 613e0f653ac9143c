import { expect, test } from "@playwright/test";
import { ADMIN, signIn } from "../helpers.ts";
import { MB, uploadFiles } from "../upload-files.ts";

// The direct upload is the JavaScript path (admin-uploads.spec.ts has the forms in both projects):
// the server keeps its limit when a client skips the browser's own check.

const { jpegOfSize, storedCopies } = uploadFiles();

test("with JavaScript, the server refuses an 11 MB cover too when a client skips the browser's check", async ({ page }) => {
  const oversize = jpegOfSize("big-cover.jpg", 11 * MB);
  await signIn(page, ADMIN.email, ADMIN.password);

  const asked = await page.request.post("/api/objects/upload", {
    data: { kind: "cover", fileName: oversize.name, contentType: "image/jpeg", size: oversize.bytes.length },
  });
  expect(asked.status()).toBe(413);
  expect(await asked.json()).toEqual({ message: "File size must be less than 10MB." });

  // A client that declares 9 MB and then sends 11.
  const granted = await page.request.post("/api/objects/upload", {
    data: { kind: "cover", fileName: oversize.name, contentType: "image/jpeg", size: 9 * MB },
  });
  expect(granted.status()).toBe(200);
  const { uploadURL, path: storedPath } = (await granted.json()) as { uploadURL: string; path: string };
  const put = await page.request.put(uploadURL, { data: oversize.bytes, headers: { "Content-Type": "image/jpeg" } });
  expect(put.status()).toBe(413);
  expect(await put.json()).toEqual({ message: "File size must be less than 10MB." });
  expect((await page.request.get(storedPath)).status()).toBe(404);
  expect(storedCopies(oversize)).toEqual([]);
});
