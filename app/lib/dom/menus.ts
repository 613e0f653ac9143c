/**
 * Opening any header menu closes every other one (the <details name> groups leave a desktop's
 * Categories and profile panel open together). Plain DOM code: the header's hook runs it on pages
 * that hydrate, the static page script on those that do not. Returns the function that stops it.
 */
export function oneMenuAtATime(header: HTMLElement) {
  function closeOthers(event: Event) {
    const opened = event.target;
    if (!(opened instanceof HTMLDetailsElement) || !opened.open) return;
    for (const other of header.querySelectorAll<HTMLDetailsElement>("details[open]")) {
      if (other === opened) continue;
      // The phone's Menu holds the sections: opening Categories inside it keeps it open.
      if (other.classList.contains("menu-toggle") && opened.closest(".site-nav")) continue;
      other.open = false;
    }
  }
  // "toggle" does not bubble: listen in the capture phase to hear every menu in the header.
  header.addEventListener("toggle", closeOthers, true);
  return () => header.removeEventListener("toggle", closeOthers, true);
}
