import { checkBeforeSubmit } from "~/lib/dom/form-check.ts";

// A page whose form does not hydrate (decision 025; /contact): its controls are checked in the
// server's words before the form is sent (lib/dom/form-check.ts).
for (const form of document.querySelectorAll<HTMLFormElement>("form[data-check]")) checkBeforeSubmit(form);
