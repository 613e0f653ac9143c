import { useId } from "react";
import { parseDescription } from "~/lib/format.ts";
import { DisclosureToggle } from "~/components/ui/disclosure-toggle.tsx";

/** Texts shorter than this fit in four lines on a desktop column; no toggle for them. */
const TOGGLE_FROM_CHARS = 280;

/**
 * The animation description on its detail page: short title-like lines become headings,
 * and the text is collapsed to 4 lines with See more / See less. The toggle is a checkbox and
 * its label, so it works without JavaScript.
 */
export function AnimationDescription({ text }: { text: string }) {
  const id = useId();
  const blocks = parseDescription(text);
  const body = (
    <>
      {blocks.map((block, i) =>
        block.kind === "heading" ? (
          <h3 key={i} className="mt-3 text-lg font-semibold text-slate-900 first:mt-0">
            {block.text}
          </h3>
        ) : (
          <p key={i} className="mt-2 whitespace-pre-line first:mt-0">
            {block.text}
          </p>
        ),
      )}
    </>
  );
  if (text.length < TOGGLE_FROM_CHARS && blocks.length <= 3) {
    return (
      <div className="text-slate-700" data-testid="animation-description">
        {body}
      </div>
    );
  }
  return (
    <div className="text-slate-700">
      <input type="checkbox" id={id} className="peer sr-only" />
      <div className="line-clamp-4 peer-checked:line-clamp-none" data-testid="animation-description">
        {body}
      </div>
      <DisclosureToggle htmlFor={id} more="See more" less="See less" />
    </div>
  );
}
