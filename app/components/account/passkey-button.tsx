import { useState } from "react";
import { Button } from "~/components/ui/button.tsx";
import { useHydrated } from "~/components/ui/use-hydrated.ts";
import { type PasskeyPurpose, authenticateWithPasskey } from "./passkey-client.ts";

export const PASSKEYS_NEED_JAVASCRIPT = "Passkeys need JavaScript in your browser.";

/**
 * "Sign in with a passkey" and its kin. WebAuthn is a browser API, so without JavaScript the
 * button is replaced by a note and the page's forms remain the way in.
 */
export function PasskeyButton({ purpose, redirectTo, children }: { purpose: PasskeyPurpose; redirectTo?: string; children: string }) {
  const hydrated = useHydrated();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!hydrated) return <p className="mt-4 text-center text-sm text-slate-600">{PASSKEYS_NEED_JAVASCRIPT}</p>;
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      // A whole page load: the new session cookie then reaches every part of the page.
      window.location.assign(await authenticateWithPasskey(purpose, redirectTo));
    } catch (failure) {
      setError((failure as Error).message);
      setBusy(false);
    }
  };
  return (
    <div className="mt-4 flex flex-col gap-2">
      <Button variant="secondary" onClick={run} disabled={busy}>
        {busy ? "Waiting for your passkey..." : children}
      </Button>
      {error ? (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
