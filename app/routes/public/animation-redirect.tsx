import { redirect } from "react-router";
import type { Route } from "./+types/animation-redirect";

/**
 * /animation/{slug}, the older card link, lives at /animations/{slug} (docs/architecture.md,
 * "Product decisions").
 */
export function loader({ params, url }: Route.LoaderArgs) {
  const { search } = url;
  return redirect(`/animations/${encodeURIComponent(params.slug)}${search}`, 301);
}
