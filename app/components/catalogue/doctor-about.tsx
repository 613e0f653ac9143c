import { useId } from "react";
import { truncateText } from "~/lib/format.ts";
import { DisclosureToggle } from "~/components/ui/disclosure-toggle.tsx";

/** The doctor's About text is truncated at 300 characters. */
export const ABOUT_LIMIT = 300;

/** About text with Show more / Show less (a checkbox toggle: works without JavaScript). */
export function DoctorAbout({ text }: { text: string }) {
  const id = useId();
  if (text.length <= ABOUT_LIMIT) return <p className="whitespace-pre-line text-slate-700">{text}</p>;
  return (
    <div>
      <input type="checkbox" id={id} className="peer sr-only" />
      <p className="whitespace-pre-line text-slate-700 peer-checked:hidden" data-testid="about-short">
        {truncateText(text, ABOUT_LIMIT)}
      </p>
      <p className="hidden whitespace-pre-line text-slate-700 peer-checked:block" data-testid="about-full">
        {text}
      </p>
      <DisclosureToggle htmlFor={id} more="Show more" less="Show less" />
    </div>
  );
}
