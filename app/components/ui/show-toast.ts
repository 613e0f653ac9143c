import type { ToastData } from "./toast.tsx";

/**
 * Raises a toast from the browser (a fetch that ended without a navigation). The Toaster in the
 * root listens for this event; the name is repeated there on purpose (see toast.tsx).
 */
export function showToast(toast: ToastData) {
  window.dispatchEvent(new CustomEvent<ToastData>("medanim:toast", { detail: toast }));
}
