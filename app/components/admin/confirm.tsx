import { useState, type ReactNode } from "react";
import { useLocation } from "react-router";
import { Form } from "~/components/ui/form.tsx";
import { Link } from "~/components/ui/link.tsx";
import { buttonClass } from "~/components/ui/button.tsx";
import { Dialog } from "~/components/ui/dialog.tsx";
import { SubmitButton } from "~/components/ui/submit-button.tsx";
import { withQuery } from "./list-controls.tsx";

// Confirmations before delete, block, promote and demote (docs/architecture.md, "The back office"),
// in two forms of the same step. Without JavaScript the action is a link to `?confirm=<id>`:
// the screen's loader finds the record and renders <ConfirmPanel>, whose form does it (a
// second POST). With JavaScript the same link opens a dialog holding the same form.

export type ConfirmStep = {
  /** The record the step is about. */
  id: string;
  /** The form's `intent` (delete, block, promote, ...). */
  intent: string;
  title: string;
  /** The confirm text ("Are you sure you want to delete this page?") and any warning. */
  message: ReactNode;
  confirmLabel: string;
  pendingText: string;
  /** Where the form posts (the list route by default). */
  action?: string;
  tone?: "danger" | "primary";
};

function ConfirmForm({ step, onCancel, cancelTo }: { step: ConfirmStep; onCancel?: () => void; cancelTo?: string }) {
  return (
    <Form method="post" action={step.action} className="mt-4 flex flex-wrap justify-end gap-3" onSubmit={onCancel}>
      <input type="hidden" name="intent" value={step.intent} />
      <input type="hidden" name="id" value={step.id} />
      {cancelTo ? (
        <Link to={cancelTo} className={buttonClass({ variant: "secondary" })}>
          Cancel
        </Link>
      ) : (
        <button type="button" className={buttonClass({ variant: "secondary" })} onClick={onCancel}>
          Cancel
        </button>
      )}
      <SubmitButton variant={step.tone === "primary" ? "primary" : "danger"} name="intent" value={step.intent} pendingText={step.pendingText}>
        {step.confirmLabel}
      </SubmitButton>
    </Form>
  );
}

/** The trigger: a link to the server's confirm view that, with JavaScript, opens a dialog. */
export function ConfirmButton({ step, children, className }: { step: ConfirmStep; children: ReactNode; className?: string }) {
  const { search } = useLocation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Link
        to={withQuery(search, { confirm: step.id, intent: step.intent })}
        preventScrollReset
        className={className ?? "font-medium text-red-700 hover:underline"}
        onClick={(event) => {
          event.preventDefault();
          setOpen(true);
        }}
      >
        {children}
      </Link>
      {open ? (
        <Dialog open title={step.title} onClose={() => setOpen(false)}>
          <div className="text-sm text-slate-700">{step.message}</div>
          <ConfirmForm step={step} onCancel={() => setOpen(false)} />
        </Dialog>
      ) : null}
    </>
  );
}

/** The server-rendered confirm step (`?confirm=<id>`), shown above the list. */
export function ConfirmPanel({ step }: { step: ConfirmStep }) {
  const { search } = useLocation();
  return (
    <section role="alertdialog" aria-labelledby="confirm-title" className="rounded-2xl border border-red-200 bg-red-50 p-5">
      <h2 id="confirm-title" className="text-lg font-semibold text-red-900">
        {step.title}
      </h2>
      <div className="mt-1 text-sm text-red-900">{step.message}</div>
      <ConfirmForm step={step} cancelTo={withQuery(search, { confirm: null, intent: null })} />
    </section>
  );
}
