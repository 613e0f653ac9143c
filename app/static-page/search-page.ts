// Search as you type on /search (routes/public/search.tsx). Without JavaScript the form asks for
// the results page; here the term is looked up once typing pauses (the form's
// `data-search-as-you-type` holds the pause in ms), the results come from the same page as the
// server renders it, and the address is replaced so Back and a reload show the same results.
// Six skeleton cards stand in while they load; an emptied box shows the prompt again at once.
// A script of its own, beside enhance.ts, loaded on /search only (the route's handle names it).

enhanceSearch();

function enhanceSearch() {
  const form = document.querySelector<HTMLFormElement>("form[data-search-as-you-type]");
  const section = document.getElementById("search-results");
  const prompt = section?.querySelector<HTMLElement>("[data-search-prompt]");
  const loadingGrid = document.getElementById("skeleton-grid") as HTMLTemplateElement | null;
  const box = form?.elements.namedItem("q");
  if (!form || !section || !prompt || !loadingGrid || !(box instanceof HTMLInputElement)) return;
  const pause = Number(form.dataset.searchAsYouType);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: AbortController | undefined;

  async function search(term: string) {
    inFlight?.abort();
    const current = new AbortController();
    inFlight = current;
    const url = `${form!.action}?${new URLSearchParams({ q: term })}`;
    section!.setAttribute("aria-busy", "true");
    prompt!.hidden = true;
    found().replaceChildren(loadingGrid!.content.firstElementChild!.cloneNode(true));
    try {
      const response = await fetch(url, { headers: { Accept: "text/html" }, signal: current.signal });
      if (!response.ok) throw new Error(`the search answered ${response.status}`);
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      const results = page.querySelector("#search-results [data-search-found]");
      if (!results) throw new Error("the search answered a page without results");
      found().replaceWith(document.adoptNode(results));
      document.title = page.title;
      history.replaceState(history.state, "", url);
    } catch {
      // A newer term took over; otherwise the page itself says what went wrong (an error page).
      if (!current.signal.aborted) location.assign(url);
    } finally {
      if (inFlight === current) section!.setAttribute("aria-busy", "false");
    }
  }

  function found() {
    return section!.querySelector<HTMLElement>("[data-search-found]")!;
  }

  function showPrompt() {
    inFlight?.abort();
    section!.setAttribute("aria-busy", "false");
    found().replaceChildren();
    prompt!.hidden = false;
  }

  box.addEventListener("input", () => {
    clearTimeout(timer);
    const term = box.value.trim();
    if (!term) return showPrompt();
    timer = setTimeout(() => void search(term), pause);
  });

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    clearTimeout(timer);
    const term = box.value.trim();
    // Enter on a blank term: nothing to ask the server.
    if (term) void search(term);
  });
}
