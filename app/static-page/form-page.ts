import { enhancePasskeyButton } from "~/components/account/passkey-client.ts";
import { checkBeforeSubmit } from "~/lib/dom/form-check.ts";

// A page whose forms do not hydrate (decision 025; /contact, /auth, the password reset): their controls are checked in
// the server's words before a form is sent (lib/dom/form-check.ts), and a passkey button runs its
// ceremony (WebAuthn's library is fetched on the first press).
for (const form of document.querySelectorAll<HTMLFormElement>("form[data-check]")) checkBeforeSubmit(form);

for (const button of document.querySelectorAll<HTMLElement>("[data-passkey]")) enhancePasskeyButton(button);
