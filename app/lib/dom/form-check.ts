import type { ConstraintKind, ConstraintMessages } from "~/lib/constraint-messages.ts";

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

const ERROR_LIST_CLASS = "mt-1 flex flex-col gap-1";
const ERROR_CLASS = "text-sm text-red-700";

/**
 * The first of the schema's checks (those it has a message for) that `control` fails, on its
 * value trimmed where the schema trims it (`data-trim`).
 */
function failing(control: Control, messages: ConstraintMessages): ConstraintKind | null {
  if (control instanceof HTMLInputElement && control.type === "checkbox") return messages.valueMissing && !control.checked ? "valueMissing" : null;
  const value = control.dataset.trim === undefined ? control.value : control.value.trim();
  const same = control.dataset.sameAs ? (document.getElementById(control.dataset.sameAs) as Control | null) : null;
  const differs = Boolean(messages.mismatch && same && same.value !== control.value);
  if (value === "") return messages.valueMissing ? "valueMissing" : differs ? "mismatch" : null;
  if (messages.typeMismatch && control.validity.typeMismatch) return "typeMismatch";
  if (!(control instanceof HTMLSelectElement)) {
    if (messages.tooShort && value.length < control.minLength) return "tooShort";
    if (messages.tooLong && control.maxLength >= 0 && value.length > control.maxLength) return "tooLong";
  }
  if (messages.patternMismatch && control.dataset.pattern && !new RegExp(control.dataset.pattern).test(value)) return "patternMismatch";
  return differs ? "mismatch" : null;
}

/** Shows `message` under `control` as the Field layout does (components/ui/field.tsx), or clears it. */
function show(control: Control, message: string | null) {
  const id = `${control.id}-error`;
  const described = (control.getAttribute("aria-describedby") ?? "").split(" ").filter((token) => token && token !== id);
  let list = document.getElementById(id);
  if (!message) {
    list?.remove();
    control.removeAttribute("aria-invalid");
    if (described.length) control.setAttribute("aria-describedby", described.join(" "));
    else control.removeAttribute("aria-describedby");
    return;
  }
  if (!list) {
    list = document.createElement("ul");
    list.id = id;
    list.className = ERROR_LIST_CLASS;
    (control.closest("[data-field]") ?? control.parentElement)?.append(list);
  }
  const item = document.createElement("li");
  item.className = ERROR_CLASS;
  item.textContent = message;
  list.replaceChildren(item);
  control.setAttribute("aria-invalid", "true");
  control.setAttribute("aria-describedby", [...described, id].join(" "));
}

/** Checks one control and shows what it says; true when it passes. */
function check(control: Control) {
  const messages = JSON.parse(control.dataset.messages ?? "{}") as ConstraintMessages;
  const kind = failing(control, messages);
  show(control, kind ? messages[kind]! : null);
  return kind === null;
}

/**
 * A form that does not hydrate (decision 025) says what is wrong before it is sent, in the
 * server's words: each control carries its constraints and messages (lib/constraint-messages.ts),
 * and the form `novalidate` (components/ui/form.tsx), so the browser's own bubbles stay silent.
 * The first submit checks every control and stops at the first that fails, focused; from then on
 * (or from the start, when the server sent the page back with errors) a control is checked again
 * as it is typed in, as conform does on the pages that hydrate. A form that passes is sent as a
 * document, its submit button disabled and saying `data-pending-text` meanwhile. The server checks
 * everything again: this only saves a round trip.
 */
export function checkBeforeSubmit(form: HTMLFormElement) {
  const controls = () => [...form.elements].filter((element): element is Control => element instanceof HTMLElement && element.dataset.messages !== undefined);
  let checking = controls().some((control) => control.getAttribute("aria-invalid") === "true");
  const recheck = (event: Event) => {
    const changed = event.target;
    if (!checking || !(changed instanceof HTMLElement)) return;
    // The control typed in, and any that must repeat it (a password's confirmation).
    for (const control of controls()) if (control === changed || control.dataset.sameAs === changed.id) check(control);
  };
  form.addEventListener("input", recheck);
  form.addEventListener("change", recheck);
  form.addEventListener("submit", (event) => {
    checking = true;
    const failed = controls().filter((control) => !check(control));
    if (failed.length) {
      event.preventDefault();
      failed[0]!.focus();
      return;
    }
    const button = form.querySelector<HTMLButtonElement>("button[type=submit][data-pending-text]");
    if (button) sayPending(button);
  });
}

/**
 * A form being sent as a document: its submit `button` is disabled and says `data-pending-text`
 * until the next page comes. Back to this one from the back/forward cache, it says what it said and
 * `restore` makes it usable again (enabled, unless the caller decides otherwise).
 */
export function sayPending(button: HTMLButtonElement, restore: () => void = () => (button.disabled = false)) {
  const idle = button.textContent;
  // After the submission has read the form: a disabled button's form would not be sent by it.
  setTimeout(() => {
    button.disabled = true;
    button.textContent = button.dataset.pendingText ?? idle;
  });
  window.addEventListener(
    "pageshow",
    (shown) => {
      if (!shown.persisted) return;
      button.textContent = idle;
      restore();
    },
    { once: true },
  );
}
