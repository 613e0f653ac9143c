import AxeBuilder from "@axe-core/playwright";
import { expect, type Browser, type Page, test } from "@playwright/test";
import { linkFromOutbox, shownCaptionFontSize, signUp, uniqueUser } from "./helpers.ts";

// Patient links in the real Chromium, in both projects (issue 46): a clinic buys a licence,
// creates a link on the licence's page with a QR code and e-mails it; the patient opens it on a
// phone (390 px) with no account, reads the clinic's name and note in Spanish, plays the full
// video with captions large enough to read; the clinic then sees it opened (and, where the
// patient's browser runs scripts, watched to the end); revoked, the link reads a neutral message.

const RHINOPLASTY = "open_rhinoplasty_reshaping_the_nasal_framework";
const TITLE = "Open Rhinoplasty: Reshaping the Nasal Framework";
const jsOn = () => test.info().project.name === "js";

async function buyLicence(page: Page) {
  await page.goto(`/purchase/individual/${RHINOPLASTY}`);
  await page.getByRole("button", { name: "Continue to Payment" }).click();
  await expect(page.getByText("Test mode — no real payments")).toBeVisible();
  await page.getByRole("button", { name: /^Pay \$\d+/ }).click();
  await expect(page.getByRole("main").getByRole("heading", { level: 1, name: "Your license is active" })).toBeVisible();
}

/** A patient's phone: no account, the project's JavaScript setting, a Spanish-speaking browser. */
async function phone(browser: Browser) {
  return browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    locale: "es-ES",
    javaScriptEnabled: jsOn(),
    // axe's script is injected into the page, past its Content-Security-Policy.
    bypassCSP: true,
  });
}

test("a clinic sends a patient a link; the patient watches it on a phone; the clinic sees it", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const clinic = uniqueUser();
  await signUp(page, clinic);
  await buyLicence(page);

  // The licence's page, from billing.
  await page.goto("/billing");
  await page
    .getByRole("link", { name: /^Patient links and viewing/ })
    .first()
    .click();
  await expect(page.getByRole("heading", { level: 1, name: TITLE })).toBeVisible();
  const form = page.locator("form#new-patient-link");
  await expect(form.getByText(`Plays ${TITLE}.`)).toBeVisible();
  await form.getByLabel(/^Label/).fill("Mrs K., consultation on Tuesday");
  await form.getByLabel("Note to the patient (optional)").fill("Por favor, mire este video antes de su consulta.");
  await form.getByLabel("Language of the player and captions").selectOption({ label: "Español" });
  const patientEmail = `patient-${crypto.randomUUID().slice(0, 8)}@example.com`;
  await form.getByLabel("E-mail it to (optional)").fill(patientEmail);
  await form.getByRole("button", { name: "Create link" }).click();

  const card = page.getByTestId("patient-link").filter({ hasText: "Mrs K., consultation on Tuesday" });
  await expect(card.getByTestId("patient-link-state")).toHaveText("Active");
  await expect(card.getByRole("img", { name: /QR code of the link/ })).toBeVisible();
  await expect(card.getByTestId("patient-link-activity")).toContainText(`Sent to ${patientEmail}`);
  await expect(card.getByTestId("patient-link-activity")).toContainText("Not opened yet.");
  const url = await card.getByTestId("patient-link-url").inputValue();
  expect(url).toMatch(/\/p\/[A-Za-z0-9_-]{43}$/);
  // The e-mail carries the same link.
  expect(await linkFromOutbox(patientEmail, "/p/")).toBe(url);

  // The printable card: the QR code and the address to type.
  await card.getByRole("link", { name: "Print QR card" }).click();
  await expect(page.getByTestId("patient-link-card-qr").locator("svg")).toBeVisible();
  await expect(page.getByText(url)).toBeVisible();
  await page.goBack();

  // The patient, on a phone, with no account.
  const patientContext = await phone(browser);
  try {
    const patient = await patientContext.newPage();
    await patient.goto(url);
    await expect(patient.getByRole("heading", { level: 1, name: `De ${clinic.firstName} ${clinic.lastName}` })).toBeVisible();
    await expect(patient.getByTestId("patient-link-note")).toHaveText("Por favor, mire este video antes de su consulta.");
    await expect(patient.getByRole("heading", { level: 2, name: TITLE })).toBeVisible();
    await expect(patient.getByText(/Premium|Purchase|License/)).toHaveCount(0);
    const video = patient.getByTestId("animation-video");
    await expect(video).toBeVisible();
    // Spanish captions on by default; readable on the phone.
    await expect(video.locator("track[default]")).toHaveAttribute("srclang", "es");
    await expect(patient.getByTestId("player-transcript").first().locator("summary")).toContainText("Mostrar la transcripción");
    // The page fetches nothing before play (preload="none"): its metadata now, for the cue to show.
    await video.evaluate((v: HTMLVideoElement) => {
      v.preload = "metadata";
      v.load();
    });
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    expect(await shownCaptionFontSize(video)).toBeGreaterThanOrEqual(12);
    const overflow = await patient.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await patient.screenshot({ path: test.info().outputPath("patient-link-390.png"), fullPage: true });
    if (jsOn()) {
      // axe runs as a script: checked where scripts run (the markup is the same without).
      const results = await new AxeBuilder({ page: patient }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
      expect(results.violations.map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
    }

    if (jsOn()) {
      // Plays to the end (muted, as browsers allow without a gesture; from near its end to keep the run short).
      await video.evaluate(async (v: HTMLVideoElement) => {
        v.muted = true;
        await v.play();
        if (v.readyState < 1) await new Promise((resolve) => v.addEventListener("loadedmetadata", resolve, { once: true }));
        v.currentTime = Math.max(0, v.duration - 1);
      });
      await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.ended), { timeout: 20_000 }).toBe(true);
    } else {
      // Without JavaScript the <video> plays its signed source as it is.
      const src = (await video.getAttribute("src"))!;
      const media = await patient.request.get(new URL(src, url).toString(), { headers: { Range: "bytes=0-" } });
      expect([200, 206]).toContain(media.status());
    }

    // The clinic's view: opened, and watched to the end where the patient's player could say so.
    await expect(async () => {
      await page.reload();
      const activity = page.getByTestId("patient-link").filter({ hasText: "Mrs K., consultation on Tuesday" }).getByTestId("patient-link-activity");
      await expect(activity).toContainText("Opened on", { timeout: 1_000 });
      if (jsOn()) await expect(activity).toContainText("Watched to the end on", { timeout: 1_000 });
    }).toPass({ timeout: 20_000, intervals: [1_000, 2_000] });
    if (jsOn()) {
      const analytics = page.getByRole("table").filter({ hasText: "Mrs K., consultation on Tuesday" });
      await expect(analytics).toBeVisible();
    }

    // Revoked: the patient reads that it is no longer available, in their language, and nothing plays.
    await page.getByTestId("patient-link").filter({ hasText: "Mrs K., consultation on Tuesday" }).getByRole("button", { name: "Revoke" }).click();
    await expect(page.getByTestId("patient-link").filter({ hasText: "Mrs K., consultation on Tuesday" }).getByTestId("patient-link-state")).toHaveText(
      "Revoked",
    );
    await patient.goto(url);
    await expect(patient.getByRole("heading", { name: "Este enlace ya no está disponible" })).toBeVisible();
    await expect(patient.locator("video")).toHaveCount(0);
  } finally {
    await patientContext.close();
  }

  // The licence's page on a phone and a desktop: nothing scrolls sideways.
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.reload();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `the licence page scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: test.info().outputPath(`licence-page-${width}.png`), fullPage: true });
  }
});
