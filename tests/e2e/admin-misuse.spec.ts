import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { latestOutboxMail } from "../helpers/mail-parse.ts";
import { ADMIN, DATA_DIR, expectToast, signIn } from "./helpers.ts";

// The misuse inbox in both projects (decision 033): a visitor reports misuse on an animation's
// page; an admin opens the inbox from the dashboard's count of new reports, opens the report,
// sets it to investigating with a note, replies to the reporter by e-mail and resolves it.

test("an admin triages a misuse report from the dashboard to resolved", async ({ browser, page, javaScriptEnabled }) => {
  const reporter = `misuse-${javaScriptEnabled ? "js" : "nojs"}-${Date.now()}@example.com`;

  // The visitor's report, through the animation page's form.
  await page.goto("/");
  await page.getByTestId("animation-card").first().getByRole("link").first().click();
  const title = (await page.getByRole("heading", { level: 1 }).textContent())!.trim();
  const report = page.getByTestId("misuse-report");
  await report.getByText("Report Misuse").click();
  await report.getByLabel("Your email").fill(reporter);
  await report.getByLabel("What is the problem?").fill("Shown in full on a clinic's waiting-room page, with no licence notice.");
  await report.getByLabel("Link (optional)").fill("https://waiting-room.example.com/videos");
  await report.getByRole("button", { name: "Submit Report" }).click();
  await expectToast(page, "Report submitted successfully");

  // The admin: the dashboard's count opens the inbox on the new reports.
  const admin = await (await browser.newContext({ javaScriptEnabled })).newPage();
  await signIn(admin, ADMIN.email, ADMIN.password);
  await admin.goto("/admin");
  await admin.getByRole("link", { name: /^\d+ new misuse reports?$/ }).click();
  await expect(admin).toHaveURL(/\/admin\/misuse\?status=new$/);
  const row = admin.getByRole("row").filter({ hasText: reporter });
  await expect(row.getByRole("link", { name: title })).toBeVisible();
  await expect(row.getByRole("link", { name: "https://waiting-room.example.com/videos" })).toBeVisible();
  await expect(row.getByText("New", { exact: true })).toBeVisible();
  await row.getByRole("link", { name: /^Open/ }).click();

  // The report: its message, then investigating with a note.
  await expect(admin.getByRole("heading", { name: "Misuse Report" })).toBeVisible();
  await expect(admin.getByTestId("misuse-message")).toHaveText("Shown in full on a clinic's waiting-room page, with no licence notice.");
  await admin.getByRole("button", { name: "Save State" }).click();
  await expect(admin.getByText("Choose a state")).toBeVisible();
  await admin.getByLabel("New state").selectOption("investigating");
  await admin.getByLabel("Note").fill("Wrote to the clinic about its licence.");
  await admin.getByRole("button", { name: "Save State" }).click();
  await expectToast(admin, "Report Updated", "The report is Investigating now.");
  await expect(admin.getByTestId("misuse-state")).toHaveText("Investigating");
  const history = admin.getByTestId("misuse-history");
  await expect(history.getByText("New → Investigating")).toBeVisible();
  await expect(history.getByText("Wrote to the clinic about its licence.")).toBeVisible();

  // The reply reaches the reporter's mailbox and the history.
  await admin.getByLabel("Your reply").fill("Thank you. We have contacted the clinic and will follow up.");
  await admin.getByRole("button", { name: "Send Reply" }).click();
  await expectToast(admin, "Reply Sent");
  await expect(history.getByText("Replied to the reporter")).toBeVisible();
  await expect
    .poll(async () => (await latestOutboxMail(DATA_DIR, reporter))?.text ?? "")
    .toContain("Thank you. We have contacted the clinic and will follow up.");
  expect((await latestOutboxMail(DATA_DIR, reporter))!.subject).toBe(`About your report on ${title}`);

  // Resolved, with its note; the inbox shows it so.
  await admin.getByLabel("New state").selectOption("resolved");
  await admin.getByLabel("Note").fill("The clinic bought a licence.");
  await admin.getByRole("button", { name: "Save State" }).click();
  await expectToast(admin, "Report Updated", "The report is Resolved now.");
  await expect(history.getByText("Investigating → Resolved")).toBeVisible();
  await expect(history.getByText(ADMIN.email).first()).toBeVisible();
  // The report's page: no accessibility violation, and no sideways scroll on a phone (axe runs as
  // a script, so in the project with JavaScript; the inbox is checked with every screen).
  if (javaScriptEnabled) {
    for (const width of [1280, 390]) {
      await admin.setViewportSize({ width, height: 844 });
      const results = await new AxeBuilder({ page: admin }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
      expect(results.violations.map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
      expect(await admin.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    }
  }
  await admin.goto("/admin/misuse?status=resolved");
  await expect(admin.getByRole("row").filter({ hasText: reporter }).getByText("Resolved", { exact: true })).toBeVisible();
});
