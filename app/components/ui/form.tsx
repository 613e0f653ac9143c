import type { ComponentProps } from "react";
import { Form as RouterForm } from "react-router";

/**
 * Every form of the app: React Router's `<Form>`, always with `noValidate` in the HTML the server
 * sends (ESLint refuses react-router's Form and a bare `<form>` elsewhere).
 *
 * Why: a browser left to check `required`, `type="email"`, `minLength` or `pattern` itself
 * refuses to send the form and speaks in its own words ("Please include an '@' in the email
 * address"), so without JavaScript the spec's messages ("Invalid email address") never showed.
 * With `noValidate` the checks are the app's, in the schema's words: conform's on the pages that
 * hydrate, lib/dom/form-check.ts's on those that do not (decision 025), and the server's, which
 * answers with the messages beside each field, with or without JavaScript. The controls keep
 * their constraint attributes: they tell assistive technology what a field needs, and the
 * checks in the browser read them. Every form, a lone button's too: one rule is easier to hold.
 *
 * `reloadDocument` for a form the browser (or its own `onSubmit`) sends, not the router.
 */
export function Form(props: Omit<ComponentProps<typeof RouterForm>, "noValidate">) {
  return <RouterForm {...props} noValidate />;
}
