// The browser's side of the passkey ceremonies: ask the server for a challenge, let the device
// answer it (WebAuthn, through @simplewebauthn/browser), send the answer back. The library is
// imported on first use, so only a click on a passkey button downloads it. The calls are
// same-origin fetches: the browser sends its Origin, which is what the CSRF guard checks.

export type PasskeyPurpose = "sign-in" | "two-step" | "step-up";

const CANCELLED = "The passkey request was cancelled or timed out. Please try again.";
const UNSUPPORTED = "This browser cannot use passkeys. Sign in with your password instead.";
const FAILED = "Something went wrong. Please try again.";

async function post<T>(url: string, body: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" }, body: JSON.stringify(body) });
  } catch {
    throw new Error("We could not reach Medanim. Check your connection and try again.");
  }
  const answer = (await response.json().catch(() => ({}))) as T & { message?: string };
  if (!response.ok) throw new Error(answer.message ?? FAILED);
  return answer;
}

/** What the device said, in the product's words: a cancelled prompt is the common case. */
function deviceError(error: unknown): Error {
  const name = (error as { name?: string; cause?: { name?: string } })?.cause?.name ?? (error as { name?: string })?.name;
  if (name === "NotAllowedError" || name === "AbortError") return new Error(CANCELLED);
  if (name === "InvalidStateError") return new Error("This passkey is already registered.");
  return new Error(FAILED);
}

async function webauthn() {
  const library = await import("@simplewebauthn/browser");
  if (!library.browserSupportsWebAuthn()) throw new Error(UNSUPPORTED);
  return library;
}

/** Registers a passkey for the signed-in user. */
export async function addPasskey(name: string) {
  const { startRegistration } = await webauthn();
  const { token, options } = await post<{ token: string; options: Parameters<typeof startRegistration>[0]["optionsJSON"] }>("/profile/passkeys/options", {});
  let response;
  try {
    response = await startRegistration({ optionsJSON: options });
  } catch (error) {
    throw deviceError(error);
  }
  await post("/profile/passkeys/register", { token, response, ...(name.trim() ? { name: name.trim() } : {}) });
}

/** Signs in (alone or as the second step) or confirms a step-up; returns where to go next. */
export async function authenticateWithPasskey(purpose: PasskeyPurpose, redirectTo?: string) {
  const { startAuthentication } = await webauthn();
  const { token, options } = await post<{ token: string; options: Parameters<typeof startAuthentication>[0]["optionsJSON"] }>("/auth/passkey/options", {
    purpose,
  });
  let response;
  try {
    response = await startAuthentication({ optionsJSON: options });
  } catch (error) {
    throw deviceError(error);
  }
  const answer = await post<{ redirectTo: string }>("/auth/passkey", { purpose, token, response, ...(redirectTo ? { redirectTo } : {}) });
  return answer.redirectTo;
}

/**
 * What JavaScript adds to a passkey button (passkey-button.tsx renders `root`, its
 * `[data-passkey]`): the note that passkeys need JavaScript gives way to the button, which runs
 * the ceremony and loads the page the server names (a whole page load: the new session cookie then
 * reaches every part of it), or says what went wrong. Plain DOM code: the React button runs it
 * from an effect on the pages that hydrate, the sign-in page's own script where it does not
 * (decision 025). Returns the function that stops it.
 */
export function enhancePasskeyButton(root: HTMLElement) {
  const button = root.querySelector("button");
  const note = root.querySelector<HTMLElement>("[data-passkey-note]");
  const alert = root.querySelector<HTMLElement>("[role=alert]");
  if (!button) return () => undefined;
  const purpose = root.dataset.passkey as PasskeyPurpose;
  const idle = button.textContent;
  const run = async () => {
    button.disabled = true;
    button.textContent = "Waiting for your passkey...";
    if (alert) alert.hidden = true;
    try {
      window.location.assign(await authenticateWithPasskey(purpose, root.dataset.redirectTo || undefined));
    } catch (failure) {
      if (alert) {
        alert.textContent = (failure as Error).message;
        alert.hidden = false;
      }
      button.disabled = false;
      button.textContent = idle;
    }
  };
  if (note) note.hidden = true;
  button.hidden = false;
  button.addEventListener("click", run);
  return () => {
    button.removeEventListener("click", run);
    button.hidden = true;
    if (note) note.hidden = false;
  };
}
