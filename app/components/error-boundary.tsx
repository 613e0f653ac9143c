import type { ReactNode } from "react";
import { isRouteErrorResponse, useRouteError } from "react-router";
import { Link } from "~/components/ui/link.tsx";
import { buttonClass } from "./ui/button.tsx";

type StatusHandler = (info: { error: { status: number; data: unknown } }) => ReactNode;

/** One boundary for every route; screens pass their own not-found view for 404. */
export function GeneralErrorBoundary({ statusHandlers = {} }: { statusHandlers?: Record<number, StatusHandler> }) {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) {
    const handler = statusHandlers[error.status];
    if (handler) return <>{handler({ error })}</>;
    if (error.status === 404) return <NotFoundScreen />;
    const message = typeof error.data === "string" ? error.data : (error.data as { message?: string })?.message;
    return <ErrorScreen title={`${error.status} ${error.statusText || "Error"}`} message={message ?? "Something went wrong."} />;
  }
  if (typeof document !== "undefined") console.error(error);
  return <ErrorScreen title="Something went wrong" message="An unexpected error occurred. Please try again." />;
}

export function ErrorScreen({ title, message, action }: { title: string; message: string; action?: ReactNode }) {
  return (
    <main className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <h1 className="text-3xl font-bold">{title}</h1>
      <p className="mt-3 text-slate-600">{message}</p>
      <div className="mt-8">
        {action ?? (
          <Link to="/" className={buttonClass()}>
            Go Home
          </Link>
        )}
      </div>
    </main>
  );
}

export function NotFoundScreen() {
  return <ErrorScreen title="404 - Page Not Found" message="The page you are looking for does not exist or has been moved." />;
}
