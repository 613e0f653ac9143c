import { useEffect, useRef, type ReactNode } from "react";

/**
 * A native <dialog>: focus trapping, Escape and the backdrop come from the browser. Without
 * JavaScript, screens render their confirm step on the server instead (`?confirm=<id>`).
 */
export function Dialog({ open, onClose, title, children }: { open: boolean; onClose: () => void; title: ReactNode; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} onClose={onClose} aria-labelledby="dialog-title" className="m-auto w-full max-w-lg rounded-xl p-0 shadow-xl backdrop:bg-slate-900/50">
      <div className="p-6">
        <h2 id="dialog-title" className="mb-4 text-lg font-semibold">
          {title}
        </h2>
        {children}
      </div>
    </dialog>
  );
}
