// Browser helpers of the checkout forms.

export type Outcome = { ok: true } | { ok: false; message: string };

export function readMessage(error: unknown) {
  return error instanceof Error && error.message ? error.message : "Something went wrong. Please try again.";
}

/** POST /api/payments/success: the server asks the provider and grants the item (or says why not). */
export async function confirmOnServer(paymentIntentId: string): Promise<Outcome> {
  const response = await fetch("/api/payments/success", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({ paymentIntentId }),
  });
  if (response.ok) return { ok: true };
  const body = (await response.json().catch(() => ({}))) as { message?: string };
  return { ok: false, message: body.message ?? `${response.status}: ${response.statusText}` };
}
