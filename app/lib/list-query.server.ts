// Query parameters the admin lists share: the confirm step (`?confirm=<id>&intent=<intent>`,
// rendered by the server when there is no JavaScript) and the way back to the list as it was.

/** The record and intent of the confirm step, when the URL asks for one of these intents. */
export function confirmTarget<Intent extends string>(url: URL, intents: readonly Intent[]): { id: string; intent: Intent } | null {
  const id = url.searchParams.get("confirm");
  const intent = url.searchParams.get("intent") ?? "delete";
  if (!id || !(intents as readonly string[]).includes(intent)) return null;
  return { id, intent: intent as Intent };
}

/** The list's path with its filters and page, without the confirm step. */
export function backToList(path: string, url: URL) {
  const params = new URLSearchParams(url.searchParams);
  for (const key of ["confirm", "intent", "index", "_routes"]) params.delete(key);
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}
