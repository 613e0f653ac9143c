import { Link } from "react-router";
import { formatSeconds } from "~/lib/duration.ts";
import type { AnimationCardDto } from "~/services/catalogue/types.ts";
import { Section } from "../ui/section.tsx";
import { animationHref, Cover } from "./animation-card.tsx";

/** A titled, compact list of animations for a side column: a small cover, the title, the length. */
export function RelatedList({ id, title, animations }: { id: string; title: string; animations: AnimationCardDto[] }) {
  if (animations.length === 0) return null;
  return (
    <Section card id={id} title={title}>
      <ul className="mt-3 flex flex-col gap-3">
        {animations.map((animation) => (
          <li key={animation.id}>
            <Link to={animationHref(animation)} className="group flex items-center gap-3">
              <span className="relative aspect-video w-28 flex-none overflow-hidden rounded-lg bg-slate-100">
                <Cover src={animation.coverImage} />
              </span>
              <span className="flex min-w-0 flex-col">
                <span className="text-sm leading-snug font-medium text-slate-900 group-hover:text-brand-700">{animation.title}</span>
                <span className="text-xs text-slate-600">{formatSeconds(animation.duration)}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </Section>
  );
}
