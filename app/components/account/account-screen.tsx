import type { ReactNode } from "react";
import { TextLink } from "../ui/text-link.tsx";
import { Link } from "~/components/ui/link.tsx";

const TONES = {
  success: { ring: "bg-green-100 text-green-700", icon: "✓" },
  error: { ring: "bg-red-100 text-red-700", icon: "!" },
  info: { ring: "bg-brand-100 text-brand-700", icon: "i" },
} as const;

/** A centred card for one-message screens (verification result, reset link states). */
export function AccountScreen({
  title,
  message,
  tone = "info",
  children,
}: {
  title: string;
  message?: ReactNode;
  tone?: keyof typeof TONES;
  children?: ReactNode;
}) {
  return (
    <main className="mx-auto max-w-md px-4 py-16">
      <div className="rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm">
        <div aria-hidden="true" className={`mx-auto flex h-12 w-12 items-center justify-center rounded-full text-xl font-bold ${TONES[tone].ring}`}>
          {TONES[tone].icon}
        </div>
        <h1 className="mt-4 text-2xl font-bold">{title}</h1>
        {message ? <p className="mt-2 text-slate-600">{message}</p> : null}
        {children ? <div className="mt-6 flex flex-col items-stretch gap-3">{children}</div> : null}
      </div>
    </main>
  );
}

/**
 * The narrow card of the sign-in and password forms: title, optional intro and, with `back`,
 * an arrow link before the title.
 */
export function FormScreen({
  title,
  intro,
  back,
  children,
}: {
  title: ReactNode;
  intro?: ReactNode;
  back?: { to: string; label: string };
  children: ReactNode;
}) {
  const heading = <h1 className="text-2xl font-bold">{title}</h1>;
  return (
    <main className="mx-auto max-w-md px-4 py-12">
      <div className="rounded-2xl border border-slate-200 bg-white p-8 shadow-sm">
        {back ? (
          <header className="flex items-center gap-3">
            <Link to={back.to} aria-label={back.label} className="rounded-lg p-2 text-slate-600 hover:bg-slate-100">
              <span aria-hidden="true">←</span>
            </Link>
            {heading}
          </header>
        ) : (
          heading
        )}
        {intro ? <p className="mt-1 text-sm text-slate-600">{intro}</p> : null}
        {children}
      </div>
    </main>
  );
}

/** The frame of the signed-in pages: back link to the dashboard, title, optional intro. */
export function AccountPage({ title, intro, wide = false, children }: { title: string; intro?: ReactNode; wide?: boolean; children: ReactNode }) {
  return (
    <main className={`mx-auto ${wide ? "max-w-7xl" : "max-w-3xl"} px-4 py-10`}>
      <p className="text-sm">
        <TextLink to="/dashboard">← Back to Dashboard</TextLink>
      </p>
      <h1 className="mt-2 text-3xl font-bold">{title}</h1>
      {intro ? <p className="mt-1 text-slate-600">{intro}</p> : null}
      {children}
    </main>
  );
}
