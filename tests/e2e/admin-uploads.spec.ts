import { expect, test, type Page } from "@playwright/test";
import { ADMIN, expectToast, signIn } from "./helpers.ts";
import { MB, unique, type Upload, uploadFiles } from "./upload-files.ts";

// Real-sized files through the admin forms, at both widths. Without JavaScript the files travel
// in the multipart form and are streamed to storage by the action (each form's body cap is set
// in app/route-rules.ts); with JavaScript each file goes straight to storage when chosen. Either
// way an oversize cover is refused beside its field and nothing of it stays in storage.

// Why 60 s, not 30: an animation test moves about 50 MB through the forms and reads 24 MB back;
// it took 17 to 29 s on two cores shared at a load average of 11 to 22 (signing in alone 4.5 s).
test.describe.configure({ timeout: 60_000 });

const { jpegOfSize, mp4OfSize, zipOfSize, storedCopies } = uploadFiles();

/** Chooses a file; with JavaScript, waits for its direct upload to finish. */
async function choose(page: Page, label: string, upload: Upload, javaScriptEnabled: boolean) {
  await page.getByLabel(label, { exact: true }).setInputFiles(upload.path);
  if (javaScriptEnabled) await expect(page.getByText(`Uploaded ${upload.name}`)).toBeVisible({ timeout: 15_000 });
}

/** The stored file a "Current file" link of the edit form points at has the uploaded bytes' length. */
async function expectCurrentFile(page: Page, label: string, upload: Upload) {
  const field = page.locator("[data-upload-state]").filter({ has: page.getByLabel(label, { exact: true }) });
  const href = await field.getByRole("link", { name: "Current file" }).getAttribute("href");
  expect(href).toMatch(/^\/objects\/uploads\/[0-9a-f-]{36}$/);
  const response = await page.request.get(href!);
  expect(response.status()).toBe(200);
  const body = await response.body();
  expect(body.length).toBe(upload.bytes.length);
  expect(body.equals(upload.bytes)).toBe(true);
}

for (const width of [1280, 390]) {
  test.describe(`${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test("a doctor with a 4 MB photo, after a 20 MB one from a camera is refused beside its field", async ({ page, javaScriptEnabled }) => {
      const cameraPhoto = jpegOfSize("camera.jpg", 20 * MB);
      const photo = jpegOfSize("photo.jpg", 4 * MB);
      await signIn(page, ADMIN.email, ADMIN.password);
      const name = `Dr. Okafor ${unique()}`;
      await page.goto("/admin/doctors/new");
      await page.getByLabel("Name").fill(name);
      await page.getByLabel("Specialty").fill("Cardiology");
      const photoInput = page.getByLabel("Photo", { exact: true });
      await photoInput.setInputFiles(cameraPhoto.path);
      if (!javaScriptEnabled) await page.getByRole("button", { name: "Create Doctor" }).click();
      await expect(page).toHaveURL(/\/admin\/doctors\/new$/);
      await expect(photoInput).toHaveAccessibleDescription(/File size must be less than 5MB\./);
      await expect(page.getByLabel("Name")).toHaveValue(name);
      expect(storedCopies(cameraPhoto)).toEqual([]);

      await choose(page, "Photo", photo, javaScriptEnabled);
      await page.getByRole("button", { name: "Create Doctor" }).click();
      await expectToast(page, "Doctor Created");
      await page.goto(`/admin/doctors?search=${encodeURIComponent(name)}`);
      await page.getByRole("row").filter({ hasText: name }).getByRole("link", { name: "Edit" }).click();
      await expectCurrentFile(page, "Photo", photo);
    });

    test("an animation with a 12 MB video, a 9 MB cover and a 3 MB zip; an 11 MB cover is refused beside its field and not kept", async ({
      page,
      javaScriptEnabled,
    }) => {
      const oversize = jpegOfSize("big-cover.jpg", 11 * MB);
      const cover = jpegOfSize("cover.jpg", 9 * MB);
      const video = mp4OfSize("full.mp4", 12 * MB);
      const zip = zipOfSize("pack.zip", 3 * MB);
      await signIn(page, ADMIN.email, ADMIN.password);
      const title = `Angioplasty ${unique()}`;
      await page.goto("/admin/animations/new");
      await page.getByLabel("Title").fill(title);
      await page.getByLabel("Description").fill("Opening a narrowed artery with a balloon.");
      // A subcategory and a doctor, like every demo animation: other specs read the public
      // catalogue's newest cards while this one exists (it is deleted at the end).
      await page.getByLabel("Category").selectOption({ index: 2 });
      await page.locator('input[name="doctorIds"]').first().check();

      // The refused cover: without JavaScript it travels with the other two files, and nothing
      // of that request is kept; with JavaScript it never leaves the browser.
      const coverInput = page.getByLabel("Cover image", { exact: true });
      await coverInput.setInputFiles(oversize.path);
      if (!javaScriptEnabled) {
        await choose(page, "Full video", video, false);
        await choose(page, "Download file", zip, false);
        await page.getByRole("button", { name: "Create Animation" }).click();
      }
      await expect(page).toHaveURL(/\/admin\/animations\/new$/);
      await expect(coverInput).toHaveAccessibleDescription(/File size must be less than 10MB\./);
      await expect(coverInput).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByLabel("Title")).toHaveValue(title);
      expect(storedCopies(oversize)).toEqual([]);
      if (!javaScriptEnabled) {
        expect(storedCopies(video)).toEqual([]);
        expect(storedCopies(zip)).toEqual([]);
      }

      await choose(page, "Cover image", cover, javaScriptEnabled);
      await choose(page, "Full video", video, javaScriptEnabled);
      await choose(page, "Download file", zip, javaScriptEnabled);
      await page.getByRole("button", { name: "Create Animation" }).click();
      await expectToast(page, "Animation Created");

      await page.goto(`/admin/animations?search=${encodeURIComponent(title)}`);
      await page.getByRole("row").filter({ hasText: title }).getByRole("link", { name: "Edit" }).click();
      await expectCurrentFile(page, "Cover image", cover);
      await expectCurrentFile(page, "Full video", video);
      await expectCurrentFile(page, "Download file", zip);
      expect(storedCopies(oversize)).toEqual([]);
      const id = new URL(page.url()).pathname.split("/").at(-1)!;
      expect((await page.request.delete(`/api/animations/${id}`)).status()).toBe(200);
    });
  });
}
