import type { ComponentProps, ReactNode } from "react";
import { Button } from "./button.tsx";
import { useIsPending } from "./use-is-pending.ts";

/**
 * A submit button that says what it is doing ("Sending...") and cannot be pressed twice while
 * its form is submitting. A button with `name="intent"` only reacts to its own intent. Pass
 * `pending` to decide yourself (a fetcher's state, a form posting elsewhere).
 */
export function SubmitButton({
  pendingText,
  pending,
  disabled,
  children,
  ...props
}: Omit<ComponentProps<typeof Button>, "type"> & { pendingText: ReactNode; pending?: boolean }) {
  const intent = props.name === "intent" && props.value !== undefined ? String(props.value) : undefined;
  const routePending = useIsPending({ intent, state: "submitting" });
  const busy = pending ?? routePending;
  return (
    <Button type="submit" disabled={busy || disabled} {...props}>
      {busy ? pendingText : children}
    </Button>
  );
}
