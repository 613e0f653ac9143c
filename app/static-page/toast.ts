import { focusOnF8, TOAST_DISPLAY_MS } from "~/lib/dom/toast.ts";

// The flash toast a page that does not hydrate was rendered with (components/ui/toast.tsx writes
// it): it leaves after 5000 ms or when closed, and F8 moves focus to the notification region.
export function enhanceToast() {
  const region = document.querySelector<HTMLElement>(".toast-region");
  if (!region) return;
  focusOnF8(region);
  const toast = region.querySelector(".toast");
  if (!toast) return;
  const timer = setTimeout(() => toast.remove(), TOAST_DISPLAY_MS);
  toast.querySelector("button")?.addEventListener("click", () => {
    clearTimeout(timer);
    toast.remove();
  });
}
