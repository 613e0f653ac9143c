import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { zipStored } from "../../prisma/seed-data/zip.ts";
import { ADMIN, expectToast, signIn } from "./helpers.ts";
import { unique } from "./upload-files.ts";

// Decision 032 in both projects: the admin uploads a master on the create form; the new
// animation is a draft, processing; Publish says what is missing; the list is reloaded until the
// transcode is done; the medical review is recorded; Publish puts it in the public catalogue.

// The transcode of a 2-second 320×180 master shares the two cores with the other specs' work.
const TRANSCODE_WAIT_MS = 150_000;
test.describe.configure({ timeout: TRANSCODE_WAIT_MS + 90_000 });

let dir: string;
const files = { video: "", cover: "", zip: "" };

test.beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-publishing-"));
  const ffmpeg = (...args: string[]) => execFileSync("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", ...args]);
  files.video = path.join(dir, "master.mp4");
  ffmpeg("-i", "testsrc2=size=320x180:rate=25", "-t", "2", "-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "ultrafast", files.video);
  files.cover = path.join(dir, "cover.jpg");
  ffmpeg("-i", "testsrc2=size=640x360", "-frames:v", "1", files.cover);
  files.zip = path.join(dir, "extras.zip");
  fs.writeFileSync(files.zip, zipStored([{ name: "readme.txt", content: Buffer.from("Publishing e2e extras\n") }]));
});

test.afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Chooses a file; with JavaScript, waits for its direct upload to finish. */
async function choose(page: Page, label: string, file: string, javaScriptEnabled: boolean) {
  await page.getByLabel(label, { exact: true }).setInputFiles(file);
  if (javaScriptEnabled) await expect(page.getByText(`Uploaded ${path.basename(file)}`)).toBeVisible({ timeout: 15_000 });
}

test("a master uploaded on the create form: a draft while it processes, refused with what is missing, published once ready and reviewed", async ({
  page,
  browser,
  javaScriptEnabled,
}) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  const title = `Carpal Tunnel Release ${unique()}`;
  const slug = title.toLowerCase().replace(/\s+/g, "_");
  await page.goto("/admin/animations/new");
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Description").fill("Freeing the median nerve at the wrist.");
  // Below any category licence's price: the saved toast then carries no price warning.
  await page.getByLabel("Individual price (USD)").fill("49");
  // A subcategory and a doctor, like every demo animation (the review names one of its doctors).
  await page.getByLabel("Category").selectOption({ index: 2 });
  await page.locator('input[name="doctorIds"]').first().check();
  await expect(page.getByLabel("Publish when ready")).not.toBeChecked();
  // Before a video is probed the duration is typed; its m:ss follows as it is typed (with JavaScript).
  await expect(page.getByText("Shown as 2:00.")).toBeVisible();
  if (javaScriptEnabled) {
    await page.getByLabel("Duration (seconds)").fill("75");
    await expect(page.getByText("Shown as 1:15.")).toBeVisible();
  }
  // Saved without its files: refused beside each field. Chosen afterwards (with JavaScript each
  // goes to storage at once), a file's old refusal leaves the screen.
  await page.getByRole("button", { name: "Create Animation" }).click();
  await expect(page.getByText("Cover image is required")).toBeVisible();
  await choose(page, "Cover image", files.cover, javaScriptEnabled);
  if (javaScriptEnabled) await expect(page.getByText("Cover image is required")).toHaveCount(0);
  await choose(page, "Full video", files.video, javaScriptEnabled);
  await choose(page, "Download file", files.zip, javaScriptEnabled);
  await page.getByRole("button", { name: "Create Animation" }).click();
  await expectToast(page, "Animation Created", `${title} was saved as a draft until you publish it.`);

  // A draft: the list says where it stands, and the public page does not exist yet.
  const listUrl = `/admin/animations?search=${encodeURIComponent(title)}`;
  await page.goto(listUrl);
  const row = page.getByRole("row").filter({ hasText: title });
  await expect(row.getByText(/^(Processing|Ready for review)$/)).toBeVisible();
  expect((await page.request.get(`/animations/${slug}`)).status()).toBe(404);

  // Publishing now is refused with what is missing (no review yet, whatever the transcode's progress).
  await row.getByRole("button", { name: "Publish", exact: true }).click();
  await expect(page.getByText(new RegExp(`Cannot publish “${title}” yet: .*it has no current medical review\\.`))).toBeVisible();

  // The admin reloads the list until the transcode is done.
  await expect
    .poll(
      async () => {
        await page.goto(listUrl);
        return (
          await page
            .getByRole("row")
            .filter({ hasText: title })
            .getByText(/^(Processing|Ready for review|Draft)$/)
            .textContent()
        )?.trim();
      },
      { timeout: TRANSCODE_WAIT_MS, intervals: [2_000] },
    )
    .toBe("Ready for review");

  // The duration is the video's now, read-only on the form, its m:ss printed by the server.
  await page.getByRole("row").filter({ hasText: title }).getByRole("link", { name: "Edit" }).click();
  await expect(page.getByLabel("Duration (seconds)")).toHaveValue("2");
  await expect(page.getByLabel("Duration (seconds)")).toHaveAttribute("readonly", "");
  await expect(page.getByText("Shown as 0:02. Read from the full video")).toBeVisible();

  await page.getByRole("link", { name: "Captions & medical review" }).click();
  await page.getByLabel("Reviewed on").fill(new Date().toISOString().slice(0, 10));
  await page.getByRole("button", { name: "Save review" }).click();
  await expectToast(page, "Medical review saved");

  await page.goto(listUrl);
  const ready = page.getByRole("row").filter({ hasText: title });
  await expect(ready.getByText("Ready to publish", { exact: true })).toBeVisible();
  await ready.getByRole("button", { name: "Publish", exact: true }).click();
  await expectToast(page, "Animation Published");
  await page.goto(`${listUrl}&state=published`);
  await expect(page.getByRole("row").filter({ hasText: title }).getByText("Published", { exact: true })).toBeVisible();

  const visitor = await (await browser.newContext({ javaScriptEnabled })).newPage();
  await visitor.goto(`/animations/${slug}`);
  await expect(visitor.getByRole("heading", { name: title })).toBeVisible();
  await visitor.goto(`/search?q=${encodeURIComponent(title)}`);
  await expect(visitor.getByRole("link", { name: new RegExp(title) }).first()).toBeVisible();
  await visitor.context().close();

  // Gone again, so the other specs' catalogue is the seed's.
  await page.goto(listUrl);
  const id = (await page.getByRole("row").filter({ hasText: title }).locator('input[name="id"]').first().getAttribute("value"))!;
  expect((await page.request.delete(`/api/animations/${id}`)).status()).toBe(200);
});
