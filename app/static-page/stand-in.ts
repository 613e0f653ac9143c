// The loading skeleton of a page that does not hydrate. A region of the page that a list's next
// page replaces says which links load such a page (`data-stand-in-for`, a pattern of their
// paths); pressing one puts the page's loading grid (<template id="skeleton-grid">, 6 cards) in the
// region's place until the new document replaces the page: the home list under a filter link, a
// category's cards under another category's link. A page restored from the back/forward cache
// gets its region back.

export function enhanceStandIns() {
  const template = document.getElementById("skeleton-grid") as HTMLTemplateElement | null;
  const regions = [...document.querySelectorAll<HTMLElement>("[data-stand-in-for]")].map((element) => ({
    element,
    loads: new RegExp(element.dataset.standInFor!),
  }));
  if (!template || regions.length === 0) return;
  let shown: { region: HTMLElement; standIn: HTMLElement; hidden: HTMLElement[] } | null = null;

  document.addEventListener("click", (event) => {
    // A handler of the page's own took the click (the list's "Load More"), or it opens elsewhere.
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = (event.target as Element).closest?.("a[href]") as HTMLAnchorElement | null;
    if (!link || (link.target && link.target !== "_self") || link.hasAttribute("download") || link.origin !== location.origin) return;
    if (link.pathname === location.pathname && link.search === location.search) return;
    const region = regions.find(({ loads }) => loads.test(link.pathname))?.element;
    if (!region || shown) return;
    const standIn = template.content.firstElementChild!.cloneNode(true) as HTMLElement;
    // The region's parts go (a heading stays for screen readers); the stand-in takes their place.
    const hidden = [...region.children].filter((child): child is HTMLElement => child instanceof HTMLElement && !child.hidden && !/^H\d$/.test(child.tagName));
    for (const child of hidden) child.hidden = true;
    region.append(standIn);
    shown = { region, standIn, hidden };
  });

  window.addEventListener("pageshow", (event) => {
    if (!event.persisted || !shown) return;
    shown.standIn.remove();
    for (const child of shown.hidden) child.hidden = false;
    shown = null;
  });
}
