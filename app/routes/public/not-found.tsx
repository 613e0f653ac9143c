import { data } from "react-router";
import { NotFoundScreen } from "~/components/error-boundary.tsx";

export async function loader() {
  throw data(null, { status: 404 });
}

export default function NotFound() {
  return <NotFoundScreen />;
}

export function ErrorBoundary() {
  return <NotFoundScreen />;
}
