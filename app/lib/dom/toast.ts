/** How long a toast stays (5000 ms): the root's Toaster and the static page script. */
export const TOAST_DISPLAY_MS = 5000;

/**
 * F8 moves focus to the notification region. Plain DOM code: the Toaster runs it on pages that
 * hydrate, the static page script on those that do not. Returns the function that stops it.
 */
export function focusOnF8(region: HTMLElement) {
  function onKey(event: KeyboardEvent) {
    if (event.key !== "F8") return;
    event.preventDefault();
    region.focus();
  }
  window.addEventListener("keydown", onKey);
  return () => window.removeEventListener("keydown", onKey);
}
