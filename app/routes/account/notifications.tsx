import { parseWithZod } from "@conform-to/zod/v4";
import { AccountPage } from "~/components/account/account-screen.tsx";
import { useRef } from "react";
import { useFetcher } from "react-router";
import { Form } from "~/components/ui/form.tsx";
import { GeneralErrorBoundary } from "~/components/error-boundary.tsx";
import { Button } from "~/components/ui/button.tsx";
import { logger } from "~/lib/logger.server.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { getPreferences, updatePreferences } from "~/services/auth/account.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import { PREFERENCE_KEYS, PreferencesFormSchema } from "~/validation/account.ts";
import { NOINDEX } from "~/lib/seo.ts";
import type { Route } from "./+types/notifications";
import { readFormData } from "~/lib/form.server.ts";

export const meta: Route.MetaFunction = () => [{ title: "Notifications | Medanim" }, NOINDEX];

const SWITCHES: Record<(typeof PREFERENCE_KEYS)[number], { label: string; description: string }> = {
  emailNewAnimations: { label: "New animations", description: "Hear when new doctor-verified animations are added to the library." },
  emailPromotions: { label: "Promotions", description: "Offers and discounts on premium access and licenses." },
  emailSubscriptionUpdates: { label: "Subscription updates", description: "Receipts, renewals and changes to your subscriptions and licenses." },
  emailSecurityAlerts: { label: "Security alerts", description: "Notices when your password or email address changes." },
};

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return { preferences: await getPreferences(user.id) };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  // Every switch is posted at once; an unchecked box is absent from the form, meaning false.
  const submission = parseWithZod(await readFormData(request), { schema: PreferencesFormSchema });
  if (submission.status !== "success") {
    return redirectWithToast("/notifications", { title: "Error", description: "Failed to update preferences", type: "error" });
  }
  try {
    await updatePreferences(user.id, submission.value);
  } catch (error) {
    logger.error({ err: error }, "preferences update failed");
    return redirectWithToast("/notifications", { title: "Error", description: "Failed to update preferences", type: "error" });
  }
  return redirectWithToast("/notifications", { title: "Preferences Updated", description: "Your email preferences have been saved." });
}

export default function Notifications({ loaderData: { preferences } }: Route.ComponentProps) {
  // With JavaScript each switch saves as it is toggled; without it the Save button posts the form.
  const fetcher = useFetcher();
  const formRef = useRef<HTMLFormElement>(null);
  const saving = fetcher.state !== "idle";
  return (
    <AccountPage title="Email Notifications" intro="Choose which emails you receive. Account emails such as verification and password reset are always sent.">
      <Form
        ref={formRef}
        method="post"
        className="mt-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
        onChange={() => {
          if (formRef.current) fetcher.submit(formRef.current, { method: "post" });
        }}
      >
        <ul className="divide-y divide-slate-100">
          {PREFERENCE_KEYS.map((key) => (
            <li key={key} className="flex items-start justify-between gap-4 py-4">
              <div>
                <label htmlFor={key} className="font-medium">
                  {SWITCHES[key].label}
                </label>
                <p id={`${key}-description`} className="text-sm text-slate-600">
                  {SWITCHES[key].description}
                </p>
              </div>
              <input
                id={key}
                name={key}
                type="checkbox"
                role="switch"
                defaultChecked={preferences[key]}
                aria-describedby={`${key}-description`}
                className="peer mt-1 h-6 w-11 shrink-0 cursor-pointer appearance-none rounded-full bg-slate-300 transition before:block before:h-5 before:w-5 before:translate-x-0.5 before:translate-y-0.5 before:rounded-full before:bg-white before:shadow before:transition checked:bg-brand-600 checked:before:translate-x-5 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
              />
            </li>
          ))}
        </ul>
        <div className="mt-4 flex items-center gap-3">
          <Button type="submit">Save Preferences</Button>
          {saving ? <span className="text-sm text-slate-500">Saving...</span> : null}
        </div>
      </Form>
    </AccountPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
