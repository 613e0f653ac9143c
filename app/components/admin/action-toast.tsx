import { useEffect } from "react";
import { useHydrated } from "~/components/ui/use-hydrated.ts";
import { showToast } from "~/components/ui/show-toast.ts";
import type { ToastData } from "~/components/ui/toast.tsx";

/**
 * A toast an action answers with while the page stays (a refused form keeps what was typed, so
 * there is no redirect to carry a flash cookie). With JavaScript it is a toast in the
 * Notification region; without, the same title and text as an alert above the form.
 */
export function ActionToast({ toast }: { toast: ToastData | null | undefined }) {
  const hydrated = useHydrated();
  useEffect(() => {
    if (toast) showToast(toast);
  }, [toast]);
  if (!toast || hydrated) return null;
  return (
    <div
      role="alert"
      className={`rounded-xl border p-4 text-sm ${toast.type === "error" ? "border-red-200 bg-red-50 text-red-900" : "border-slate-200 bg-white"}`}
    >
      <p className="font-semibold">{toast.title}</p>
      {toast.description ? <p>{toast.description}</p> : null}
    </div>
  );
}
