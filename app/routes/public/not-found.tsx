import { data } from "react-router";
import { NotFoundScreen } from "~/components/error-boundary.tsx";
import { LOAD_AS_DOCUMENT, STATIC_PAGE } from "~/lib/page-handle.ts";

// A link home is all it has: it loads no React (decision 025), whoever follows a stale link to it.
export const handle = STATIC_PAGE;
export const clientMiddleware = LOAD_AS_DOCUMENT;

export async function loader() {
  throw data(null, { status: 404 });
}

export default function NotFound() {
  return <NotFoundScreen />;
}

export function ErrorBoundary() {
  return <NotFoundScreen />;
}
