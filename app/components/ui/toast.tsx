import { useEffect, useRef, useState } from "react";
import { focusOnF8, TOAST_DISPLAY_MS } from "~/lib/dom/toast.ts";

export type ToastData = { title: string; description?: string; type: "success" | "error" | "info" };

// The name showToast (show-toast.ts) raises: a window event, so pages that raise toasts do not
// import this module and split it out of the root chunk (home JavaScript budget).
const TOAST_EVENT = "medanim:toast";

/**
 * The notification region (at most one toast, 5000 ms, label 'Notification', F8 focuses
 * it). The toast arrives in the page from the flash cookie, so it shows without JavaScript; with
 * JavaScript it also dismisses itself.
 */
export function Toaster({ toast }: { toast: ToastData | null }) {
  const [visible, setVisible] = useState<ToastData | null>(toast);
  const [pageToast, setPageToast] = useState(toast);
  const region = useRef<HTMLElement>(null);

  // A toast from the page (the flash cookie) or from the browser (showToast's event); whichever
  // came last shows, and leaves after TOAST_DISPLAY_MS.
  // A new toast from the page replaces the one shown, set while rendering (not in an effect).
  if (toast !== pageToast) {
    setPageToast(toast);
    setVisible(toast);
  }
  useEffect(() => {
    const onToast = (event: Event) => setVisible((event as CustomEvent<ToastData>).detail);
    window.addEventListener(TOAST_EVENT, onToast);
    return () => window.removeEventListener(TOAST_EVENT, onToast);
  }, []);
  useEffect(() => {
    if (!visible) return;
    const timer = setTimeout(() => setVisible(null), TOAST_DISPLAY_MS);
    return () => clearTimeout(timer);
  }, [visible]);

  useEffect(() => {
    if (region.current) return focusOnF8(region.current);
  }, []);

  return (
    <section ref={region} aria-label="Notification" tabIndex={-1} className="toast-region">
      {/* The live region is always in the page, so a toast put into it is announced; a list
          around one toast is not needed (and a list item cannot carry the status role). */}
      <div role="status" aria-live="polite">
        {visible ? (
          <div className={visible.type === "error" ? "toast toast-error" : "toast"}>
            <div className="flex items-start justify-between gap-3">
              <div>
                <p className="font-semibold">{visible.title}</p>
                {visible.description ? <p className="mt-1 text-sm opacity-90">{visible.description}</p> : null}
              </div>
              <button type="button" aria-label="Close notification" className="rounded p-1 text-slate-500 hover:bg-slate-100" onClick={() => setVisible(null)}>
                ×
              </button>
            </div>
          </div>
        ) : null}
      </div>
    </section>
  );
}
