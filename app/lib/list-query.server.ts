import { data } from "react-router";
import { ServiceError } from "./errors.server.ts";
import { redirectWithToast, type Toast } from "./toast.server.ts";
import { readFormData } from "./form.server.ts";

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

export type ListIntent = {
  /** Does it to the record and says what happened (the success toast). */
  run: (id: string) => Promise<Toast>;
  /** The failure toast's title ("Failed to delete animation", ...). */
  failed: string;
  /**
   * A refusal answers with its own 4xx status and the toast in the action's data (the screen
   * renders it with ActionToast), rather than a redirect: for a rule the admin must act on.
   */
  refuseInPlace?: boolean;
};

/**
 * The POST of a list screen (a row's button or its confirm step): `intent` and `id` from the
 * form, one handler per intent, then back to the list with a toast. A refusal (ServiceError)
 * becomes the failure toast with the server's message; anything else is not the admin's doing.
 */
export async function runListAction(request: Request, back: string, intents: Record<string, ListIntent>) {
  const form = await readFormData(request);
  const name = String(form.get("intent") ?? "");
  const intent = Object.hasOwn(intents, name) ? intents[name]! : null;
  if (!intent) return redirectWithToast(back, { title: Object.values(intents)[0]!.failed, description: "Unknown action", type: "error" });
  try {
    return await redirectWithToast(back, await intent.run(String(form.get("id") ?? "")));
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    const toast = { title: intent.failed, description: error.message, type: "error" as const };
    if (intent.refuseInPlace) return data({ toast }, { status: error.status });
    return redirectWithToast(back, toast);
  }
}
