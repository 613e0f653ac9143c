// The flash toast a page that does not hydrate was rendered with (components/ui/toast.tsx writes
// it): it leaves after 5000 ms or when closed, and F8 moves focus to the notification region.
const DISPLAY_MS = 5000;

export function enhanceToast() {
  const region = document.querySelector<HTMLElement>(".toast-region");
  if (!region) return;
  window.addEventListener("keydown", (event) => {
    if (event.key !== "F8") return;
    event.preventDefault();
    region.focus();
  });
  const toast = region.querySelector(".toast");
  if (!toast) return;
  const timer = setTimeout(() => toast.remove(), DISPLAY_MS);
  toast.querySelector("button")?.addEventListener("click", () => {
    clearTimeout(timer);
    toast.remove();
  });
}
