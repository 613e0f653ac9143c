import { sayPending } from "~/lib/dom/form-check.ts";
import { enhancePlayerOnPlay } from "~/lib/dom/player-on-play.ts";

// An animation's page (routes/public/animation.tsx), loaded there only. The page is whole
// without JavaScript (decision 025); this adds the player's behaviour (lib/dom/player.ts, the
// same code /watch's React player runs), the share sheet, the misuse report's states, and
// "Go Back" on the page's not-found screen. The player's streaming code (hls.js, the quality
// menu, the seek thumbnails) loads when the viewer presses play (issue 46), not with the page.

for (const player of document.querySelectorAll<HTMLElement>("[data-player]")) enhancePlayerOnPlay(player);

for (const share of document.querySelectorAll<HTMLDetailsElement>("details[data-share-title]")) enhanceShare(share);

for (const form of document.querySelectorAll<HTMLFormElement>("form[data-misuse-report]")) enhanceReport(form);

// The not-found screen's "Go Back" is a link home: with JavaScript it goes back where the visitor came from.
for (const back of document.querySelectorAll<HTMLAnchorElement>("a[data-history-back]")) {
  back.addEventListener("click", (event) => {
    if (window.history.length <= 1) return;
    event.preventDefault();
    window.history.back();
  });
}

/**
 * Share opens the device's share sheet where there is one (the panel of links stays closed);
 * where there is none, or it fails, the panel opens. Once open, Share closes it like any toggle.
 * Copy link writes the address to the clipboard, or selects it to be copied by hand.
 */
function enhanceShare(details: HTMLDetailsElement) {
  const field = details.querySelector<HTMLInputElement>("input[data-share-url]");
  const copy = details.querySelector<HTMLButtonElement>("button[data-share-copy]");
  const status = details.querySelector<HTMLElement>("[role=status]");
  if (!field) return;
  const shared = { url: field.value, title: details.dataset.shareTitle ?? "", text: details.dataset.shareText ?? "" };
  details.querySelector("summary")?.addEventListener("click", async (event) => {
    if (!navigator.share || details.open) return;
    event.preventDefault();
    try {
      await navigator.share(shared);
    } catch (error) {
      if (error instanceof DOMException && error.name === "AbortError") return;
      details.open = true;
    }
  });
  field.addEventListener("focus", () => field.select());
  if (!copy || !status) return;
  copy.hidden = false;
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(shared.url);
      status.textContent = "Link copied";
    } catch {
      field.select();
      status.textContent = "Could not copy: the link is selected, copy it with your keyboard";
    }
  });
}

/**
 * Submit stays disabled until email and message are filled (without JavaScript it stays usable,
 * and the server says which is missing), says "Submitting..." while the report is sent, and Cancel
 * (a reset button) empties the form and closes it.
 */
function enhanceReport(form: HTMLFormElement) {
  const submit = form.querySelector<HTMLButtonElement>("button[type=submit]");
  if (!submit) return;
  const filled = () => ["reporterEmail", "message"].every((name) => String(new FormData(form).get(name) ?? "").trim() !== "");
  const update = () => (submit.disabled = !filled());
  update();
  form.addEventListener("input", update);
  form.addEventListener("reset", () => {
    // The reset event comes before the fields are emptied.
    submit.disabled = true;
    const details = form.closest("details");
    if (details) details.open = false;
  });
  form.addEventListener("submit", () => sayPending(submit, update));
}
