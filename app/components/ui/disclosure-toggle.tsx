/**
 * The "more / less" label of a CSS-only disclosure: it toggles the `peer` checkbox before it, so
 * it works without JavaScript. The content beside it reacts with `peer-checked:` classes.
 */
export function DisclosureToggle({ htmlFor, more, less }: { htmlFor: string; more: string; less: string }) {
  return (
    <label
      htmlFor={htmlFor}
      className="mt-2 inline-block cursor-pointer text-sm font-semibold text-brand-700 hover:underline peer-checked:[&>.more]:hidden peer-checked:[&>.less]:inline peer-focus-visible:outline-2 peer-focus-visible:outline-brand-600"
    >
      <span className="more">{more}</span>
      <span className="less hidden">{less}</span>
    </label>
  );
}
