import { parseWithZod } from "@conform-to/zod/v4";
import { Link } from "~/components/ui/link.tsx";
import { DemoContentLabel } from "~/components/marketing.tsx";
import { Button, buttonClass } from "~/components/ui/button.tsx";
import { Field, SelectField, TextareaField } from "~/components/ui/field.tsx";
import { Form } from "~/components/ui/form.tsx";
import { formFields } from "~/lib/constraint-messages.ts";
import { formError, readFormData } from "~/lib/form.server.ts";
import { LOAD_AS_DOCUMENT, staticPageWith } from "~/lib/page-handle.ts";
import { clientAddress } from "~/lib/rate-limit.server.ts";
import { getUser } from "~/services/auth/guards.server.ts";
import { getSupportDetails, submitContactMessage } from "~/services/site/content.server.ts";
import { CONTACT_CATEGORIES, CONTACT_SUCCESS, ContactSchema } from "~/validation/content.ts";
import { pageHead, siteOf } from "~/lib/seo.ts";
import type { Route } from "./+types/contact";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageHead(siteOf(matches), { title: "Contact Support", description: "Contact our support team. We respond within 24 hours.", canonicalPath: "/contact" });

// The page does not hydrate (decision 025): its form is checked before it is sent by the page's
// own script (app/static-page/form-page.ts).
export const handle = staticPageWith("form");
export const clientMiddleware = LOAD_AS_DOCUMENT;

// Contact Support: open to any visitor.
export async function loader({ request, url }: Route.LoaderArgs) {
  const [user, support] = await Promise.all([getUser(request), getSupportDetails()]);
  const sent = url.searchParams.get("sent") === "1";
  return {
    support,
    sent,
    // Signed-in visitors do not retype who they are.
    prefill: user ? { name: `${user.firstName} ${user.lastName}`.trim(), email: user.email } : { name: "", email: "" },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readFormData(request);
  const submission = parseWithZod(formData, { schema: ContactSchema });
  if (submission.status !== "success") return formError(submission);
  const user = await getUser(request);
  try {
    await submitContactMessage(submission.value, user?.id ?? null, clientAddress(context));
  } catch (error) {
    return formError(submission, error);
  }
  // Post/redirect/get: a reload does not send the message twice.
  throw new Response(null, { status: 303, headers: { Location: "/contact?sent=1" } });
}

export default function ContactPage({ loaderData: { support, sent, prefill }, actionData }: Route.ComponentProps) {
  return (
    <main className="mx-auto max-w-6xl px-4 py-12">
      <header className="text-center">
        <h1 className="text-4xl font-bold tracking-tight">Contact Support</h1>
        <p className="mt-3 text-lg text-slate-600">Have a question? Send us a message and our team will respond within 24 hours.</p>
      </header>
      <div className="mt-10 grid gap-8 lg:grid-cols-3">
        <section className="rounded-2xl border border-slate-200 bg-white p-8 lg:col-span-2" aria-labelledby="contact-form-title">
          <h2 id="contact-form-title" className="text-xl font-bold">
            Send us a message
          </h2>
          {sent ? <SentNotice /> : <ContactForm lastResult={actionData?.result} prefill={prefill} />}
        </section>
        <aside className="flex flex-col gap-6 rounded-2xl bg-brand-50 p-8" aria-label="Other ways to reach us">
          {support.demo ? (
            <div>
              <DemoContentLabel />
              <p className="text-sm text-slate-600">The phone number and address below are invented for this demo.</p>
            </div>
          ) : null}
          <div>
            <h2 className="font-semibold">Email</h2>
            <a href={`mailto:${support.email}`} className="text-brand-700 underline">
              {support.email}
            </a>
          </div>
          <div>
            <h2 className="font-semibold">Phone</h2>
            <a href={`tel:${support.phone.replace(/[^+\d]/g, "")}`} className="text-brand-700 underline">
              {support.phone}
            </a>
            <p className="text-sm text-slate-600">{support.hours}</p>
          </div>
          <div>
            <h2 className="font-semibold">Address</h2>
            <address className="whitespace-pre-line text-slate-700 not-italic">{support.address}</address>
          </div>
          <p className="text-sm text-slate-600">
            Looking for a quick answer? Try the <Link to="/help" className="text-brand-700 underline">Help Center</Link>.
          </p>
        </aside>
      </div>
    </main>
  );
}

function SentNotice() {
  return (
    <div role="status" className="mt-6 rounded-xl border border-emerald-200 bg-emerald-50 p-6 text-emerald-900">
      <p className="font-semibold">{CONTACT_SUCCESS}</p>
      <Link to="/contact" className={buttonClass({ variant: "secondary" }, "mt-4")}>
        Send another message
      </Link>
    </div>
  );
}

type ContactFormProps = {
  lastResult: Route.ComponentProps["actionData"] extends infer A ? (A extends { result: infer R } ? R : undefined) : undefined;
  prefill: { name: string; email: string };
};

/**
 * The form, checked by the server (the action) and, before it is sent, by the page's script in
 * the schema's own words (`constraintProps`, lib/dom/form-check.ts). A rejected message comes back
 * with the answers and the errors.
 */
function ContactForm({ lastResult, prefill }: ContactFormProps) {
  // Signed-in visitors do not retype who they are; a rejected message keeps what was typed.
  const { formErrors, field } = formFields(ContactSchema, "contact", lastResult, prefill);
  return (
    <Form method="post" id="contact" data-check className="mt-6 flex flex-col gap-4">
      {formErrors?.length ? (
        <div role="alert" id="contact-form-error" className="rounded-lg border border-red-200 bg-red-50 p-4 text-red-900">
          <p className="font-semibold">Error</p>
          <p className="text-sm">{formErrors.join(" ")}</p>
        </div>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Name" autoComplete="name" {...field("name")} />
        <Field label="Email" autoComplete="email" {...field("email")} />
      </div>
      <Field label="Subject" {...field("subject")} />
      <SelectField label="Category" placeholder="Select a category" options={[...CONTACT_CATEGORIES]} {...field("category")} />
      <TextareaField label="Message" rows={6} {...field("message")} />
      <Button type="submit" data-pending-text="Sending...">
        Send Message
      </Button>
    </Form>
  );
}
