// The Help Center (routes/public/help.tsx), loaded on /help only. Without JavaScript the FAQ
// search and category filter are a GET form and only a linked FAQ's view is counted; here a
// chosen category is applied at once, and opening a question counts its view, once per page.

for (const select of document.querySelectorAll<HTMLSelectElement>("select[data-submit-on-change]")) {
  select.addEventListener("change", () => select.form?.requestSubmit());
}

// toggle does not bubble: heard in the capture phase.
document.addEventListener(
  "toggle",
  (event) => {
    const faq = event.target;
    if (!(faq instanceof HTMLDetailsElement) || !faq.open || !faq.dataset.viewUrl || faq.dataset.viewed) return;
    faq.dataset.viewed = "true";
    // Fire and forget: a lost view must not disturb the reader.
    void fetch(faq.dataset.viewUrl, { method: "POST", keepalive: true }).catch(() => undefined);
  },
  true,
);
