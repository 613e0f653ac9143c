import { useEffect, useRef } from "react";
import { Button } from "~/components/ui/button.tsx";
import { enhancePasskeyButton, type PasskeyPurpose } from "./passkey-client.ts";

export const PASSKEYS_NEED_JAVASCRIPT = "Passkeys need JavaScript in your browser.";

/**
 * "Sign in with a passkey" and its kin. WebAuthn is a browser API, so without JavaScript the
 * button is hidden behind a note and the page's forms remain the way in. The button's behaviour
 * is plain DOM code (`enhancePasskeyButton`), run by this component's effect where the page
 * hydrates and by the page's own script where it does not (/auth, decision 025).
 */
export function PasskeyButton({ purpose, redirectTo, children }: { purpose: PasskeyPurpose; redirectTo?: string; children: string }) {
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => (root.current ? enhancePasskeyButton(root.current) : undefined), []);
  return (
    <div ref={root} className="mt-4 flex flex-col gap-2" data-passkey={purpose} data-redirect-to={redirectTo}>
      <p className="text-center text-sm text-slate-600" data-passkey-note>
        {PASSKEYS_NEED_JAVASCRIPT}
      </p>
      <Button variant="secondary" hidden>
        {children}
      </Button>
      <p role="alert" hidden className="text-sm text-red-700" />
    </div>
  );
}
