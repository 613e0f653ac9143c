import { type FormEvent, useState } from "react";
import { useRevalidator } from "react-router";
import { Form } from "~/components/ui/form.tsx";
import { Button } from "~/components/ui/button.tsx";
import { Field } from "~/components/ui/field.tsx";
import { Section } from "~/components/ui/section.tsx";
import { SubmitButton } from "~/components/ui/submit-button.tsx";
import { useHydrated } from "~/components/ui/use-hydrated.ts";
import { formatDate } from "~/lib/format.ts";
import { PASSKEYS_NEED_JAVASCRIPT } from "./passkey-button.tsx";
import { addPasskey } from "./passkey-client.ts";

export type PasskeyRow = { id: string; name: string; createdAt: Date | string; lastUsedAt: Date | string | null };

/**
 * The profile's passkeys: each with "Remove" (a plain form; removing a factor asks for a recent
 * step-up first), and "Add a passkey", which needs JavaScript (WebAuthn is a browser API).
 */
export function PasskeysSection({ passkeys }: { passkeys: PasskeyRow[] }) {
  return (
    <Section
      card
      id="passkeys"
      title="Passkeys"
      description="Sign in with your fingerprint, face or device PIN instead of a password, or use a passkey as your second step."
      className="mt-6"
    >
      {passkeys.length ? (
        <ul className="mt-4 divide-y divide-slate-200" aria-label="Your passkeys">
          {passkeys.map((passkey) => (
            <li key={passkey.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <div>
                <p className="font-medium text-slate-900">{passkey.name}</p>
                <p className="text-sm text-slate-600">
                  Added {formatDate(passkey.createdAt)} · {passkey.lastUsedAt ? `Last used ${formatDate(passkey.lastUsedAt)}` : "Not used yet"}
                </p>
              </div>
              <Form method="post" action="/profile/passkeys" reloadDocument>
                <input type="hidden" name="passkeyId" value={passkey.id} />
                <SubmitButton variant="secondary" size="sm" pendingText="Removing..." aria-label={`Remove ${passkey.name}`}>
                  Remove
                </SubmitButton>
              </Form>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-4 text-sm text-slate-600">You have no passkeys yet.</p>
      )}
      <AddPasskey />
    </Section>
  );
}

function AddPasskey() {
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!hydrated) return <p className="mt-4 text-sm text-slate-600">{PASSKEYS_NEED_JAVASCRIPT}</p>;
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await addPasskey(name);
      setName("");
      // The list and the "Passkey added" toast come with the page's data.
      await revalidator.revalidate();
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Form reloadDocument onSubmit={submit} className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end">
      <Field
        label="Passkey name (optional)"
        name="passkeyName"
        placeholder="e.g. Work laptop"
        maxLength={60}
        value={name}
        onChange={(event) => setName(event.target.value)}
        errors={error ? [error] : undefined}
        className="flex-1"
      />
      <Button type="submit" disabled={busy}>
        {busy ? "Waiting for your device..." : "Add a passkey"}
      </Button>
    </Form>
  );
}
