import { TextLink } from "~/components/ui/text-link.tsx";

/**
 * Before a long form whose save may need a step-up: the link to confirm a second factor first
 * (and come back), since the form's content would not survive the detour after submitting it.
 */
export function StepUpNotice({ link, action }: { link: string | null; action: string }) {
  if (!link) return null;
  return (
    <p className="rounded-md bg-amber-50 p-3 text-sm text-amber-900" data-testid="step-up-notice">
      {action} asks for a code from your authenticator app. <TextLink to={link}>Confirm it's you first</TextLink>, so what you enter here is not lost on the
      way.
    </p>
  );
}
