import { redirect } from "react-router";
import type { Route } from "./+types/legacy-category";

/** The legacy category route moved for good to /category/{slug} (docs/architecture.md, "Product decisions"). */
export function loader({ params, url }: Route.LoaderArgs) {
  const { search } = url;
  // 308 keeps the method; for the GETs this route sees it is the same as a 301.
  return redirect(`/category/${encodeURIComponent(params.slug)}${search}`, 308);
}
