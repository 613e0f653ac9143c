// The home list (routes/public/home.tsx). "Load More Animations" is, without JavaScript, a link to
// the next page of the list; here the next page's cards come from /home/cards (the server's own
// card markup) and are appended in place, when the link comes within 300 px of the viewport or
// is pressed. Five skeleton cards and "Loading more animations..." show while they load, and the
// address records the pages shown, so Back from an animation renders the same list. (A filter
// link loads its page as a document: stand-in.ts shows six skeleton cards until it comes.)

const MARGIN = 300;

export function enhanceList() {
  const grid = document.getElementById("animation-list");
  const link = document.getElementById("load-more") as HTMLAnchorElement | null;
  const status = document.getElementById("animation-list-status");
  const loadingGrid = document.getElementById("skeleton-grid") as HTMLTemplateElement | null;
  if (!grid || !link || !status || !loadingGrid) return;
  // Five of the page's loading grid's skeleton cards, under the list.
  const skeletons = () => [...loadingGrid.content.firstElementChild!.children].slice(0, 5).map((card) => card.cloneNode(true) as Element);
  loadMoreInPlace(grid, link, status, skeletons);
}

function loadMoreInPlace(grid: HTMLElement, link: HTMLAnchorElement, status: HTMLElement, skeletons: () => Element[]) {
  const trigger = link.parentElement!;
  let loading = false;

  async function loadNext() {
    if (loading) return;
    loading = true;
    // The link names the list's next page: `/?category=…&page=N#page-N`.
    const next = new URL(link.href);
    const query = next.searchParams;
    const placeholders = skeletons();
    grid.append(...placeholders);
    status.hidden = false;
    status.textContent = "Loading more animations...";
    try {
      const response = await fetch(`/home/cards?${query}`, { headers: { Accept: "text/html" } });
      if (!response.ok) throw new Error(`the next page answered ${response.status}`);
      const template = document.createElement("template");
      template.innerHTML = await response.text();
      const page = template.content.firstElementChild as HTMLElement | null;
      // A card already shown (the list moved while it was read) is not shown twice.
      const cards = [...(page?.children ?? [])].filter((card) => !card.id || !document.getElementById(card.id));
      grid.append(...cards);
      history.replaceState(history.state, "", `/?${query}`);
      if (page?.dataset.hasMore === "true") {
        const n = Number(query.get("page")) + 1;
        query.set("page", String(n));
        next.hash = `page-${n}`;
        link.href = `${next.pathname}${next.search}${next.hash}`;
      } else {
        observer.disconnect();
        trigger.remove();
      }
    } catch {
      // The link still leads to the next page as a document.
      observer.disconnect();
    } finally {
      for (const placeholder of placeholders) placeholder.remove();
      status.hidden = true;
      status.textContent = "";
      loading = false;
    }
    // Still near the viewport after a short page: the observer says nothing new, so look again.
    if (trigger.isConnected && near(trigger)) void loadNext();
  }

  const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && void loadNext(), { rootMargin: `${MARGIN}px` });
  observer.observe(trigger);
  link.addEventListener("click", (event) => {
    event.preventDefault();
    void loadNext();
  });
}

function near(element: Element) {
  const rect = element.getBoundingClientRect();
  return rect.top < window.innerHeight + MARGIN && rect.bottom > -MARGIN;
}
