import type { ReactNode } from "react";
import { Link } from "~/components/ui/link.tsx";

/** A bordered card that is one link: a title, an optional line under it and optional media before them. */
export function LinkCard({ to, title, description, media }: { to: string; title: ReactNode; description?: ReactNode; media?: ReactNode }) {
  return (
    <Link to={to} className="flex h-full items-center gap-3 rounded-xl border border-slate-200 bg-white p-4 hover:border-brand-500">
      {media}
      <span>
        <span className="block font-semibold">{title}</span>
        {description ? <span className="mt-1 block text-sm text-slate-600">{description}</span> : null}
      </span>
    </Link>
  );
}
