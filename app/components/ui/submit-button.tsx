import type { ComponentProps, ReactNode } from "react";
import { Button } from "./button.tsx";
import { useIsPending } from "./use-is-pending.ts";

type SubmitButtonProps = Omit<ComponentProps<typeof Button>, "type"> & { pendingText: ReactNode; pending?: boolean };

/**
 * A submit button that says what it is doing ("Sending...") and cannot be pressed twice while
 * its form is submitting. A button with `name="intent"` only reacts to its own intent. Pass
 * `pending` to decide yourself (a fetcher's state, a form posting elsewhere).
 */
export function SubmitButton({ pending, ...props }: SubmitButtonProps) {
  // A caller that passes `pending` already knows: the route's own check (useFormAction
  // resolves the route's URL on every render) would be work thrown away on each page render.
  return pending === undefined ? <RouteSubmitButton {...props} /> : <PendingButton pending={pending} {...props} />;
}

function RouteSubmitButton(props: Omit<SubmitButtonProps, "pending">) {
  const intent = props.name === "intent" && props.value !== undefined ? String(props.value) : undefined;
  return <PendingButton pending={useIsPending({ intent, state: "submitting" })} {...props} />;
}

function PendingButton({ pendingText, pending, disabled, children, ...props }: SubmitButtonProps & { pending: boolean }) {
  return (
    <Button type="submit" disabled={pending || disabled} {...props}>
      {pending ? pendingText : children}
    </Button>
  );
}
