import { Link } from "~/components/ui/link.tsx";
import { formatSeconds } from "~/lib/duration.ts";
import type { RelatedAnimation } from "~/services/catalogue/animations.server.ts";
import { ResponsiveImage } from "../ui/responsive-image.tsx";
import { Section } from "../ui/section.tsx";
import { animationHref } from "./animation-card.tsx";

/** A titled, compact list of animations for a side column: a small cover, the title, the length. */
export function RelatedList({ id, title, animations }: { id: string; title: string; animations: RelatedAnimation[] }) {
  if (animations.length === 0) return null;
  return (
    <Section card id={id} title={title}>
      <ul className="mt-3 flex flex-col gap-3">
        {animations.map((animation) => (
          <li key={animation.id}>
            {/* A plain image on a tinted box and short class names: eight of these on every animation page. */}
            <Link to={animationHref(animation)} className="related-link">
              <span className="related-thumb">
                {animation.coverImage ? <ResponsiveImage src={animation.coverImage} aspect="16x9" widths={[160, 320]} sizes="112px" alt="" /> : null}
              </span>
              <span className="related-title">
                {animation.title}
                <small>{formatSeconds(animation.duration)}</small>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </Section>
  );
}
