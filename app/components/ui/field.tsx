import { useId, type ComponentProps, type ReactNode } from "react";

export type ListOfErrors = Array<string | null | undefined> | null | undefined;

export function ErrorList({ id, errors }: { id?: string; errors?: ListOfErrors }) {
  const shown = errors?.filter(Boolean);
  if (!shown?.length) return null;
  return (
    <ul id={id} className="mt-1 flex flex-col gap-1">
      {shown.map((e) => (
        <li key={e} className="text-sm text-red-700">
          {e}
        </li>
      ))}
    </ul>
  );
}

const INPUT =
  "block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-100 aria-[invalid=true]:border-red-500";

type FieldBase = { label: ReactNode; errors?: ListOfErrors; hint?: ReactNode; className?: string };

type ControlProps = { id?: string; "aria-describedby"?: string; "aria-invalid"?: ComponentProps<"input">["aria-invalid"] };

/**
 * The one field layout: label, control, hint and errors. The control gets the label's id,
 * `aria-invalid` when there are errors and `aria-describedby` naming the errors and the hint
 * (plus any ids it already had, such as conform's). `inline` puts the label after the control
 * (checkboxes).
 */
function FieldShell<P extends ControlProps>({
  label,
  errors,
  hint,
  className = "",
  inline = false,
  props,
  render,
}: FieldBase & { inline?: boolean; props: P; render: (props: P) => ReactNode }) {
  const fallbackId = useId();
  const id = props.id ?? fallbackId;
  const errorId = errors?.some(Boolean) ? `${id}-error` : undefined;
  const hintId = hint ? `${id}-hint` : undefined;
  const control = render({
    ...props,
    id,
    "aria-invalid": errorId ? true : undefined,
    "aria-describedby": describedBy(props["aria-describedby"], errorId, hintId),
  });
  const labelElement = (
    <label htmlFor={id} className={inline ? "text-sm text-slate-700" : "mb-1 block text-sm font-medium text-slate-700"}>
      {label}
    </label>
  );
  return (
    // data-field: where a page that does not hydrate puts the messages it finds (lib/dom/form-check.ts).
    <div className={className} data-field>
      {inline ? (
        <div className="flex items-start gap-2">
          {control}
          {labelElement}
        </div>
      ) : (
        <>
          {labelElement}
          {control}
        </>
      )}
      {hint ? (
        <p id={hintId} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

/** The control's own ids, then the errors' and the hint's, each once; undefined when none. */
function describedBy(own: string | undefined, errorId: string | undefined, hintId: string | undefined) {
  // Most fields have none of the three: no list to build on every render then.
  if (!own && !errorId && !hintId) return undefined;
  const ids = own ? own.split(" ").filter(Boolean) : [];
  for (const extra of [errorId, hintId]) if (extra && !ids.includes(extra)) ids.push(extra);
  return [...new Set(ids)].join(" ") || undefined;
}

export function Field({ label, errors, hint, className, ...props }: FieldBase & ComponentProps<"input">) {
  return <FieldShell {...{ label, errors, hint, className, props }} render={(p) => <input className={INPUT} {...p} />} />;
}

export function TextareaField({ label, errors, hint, className, ...props }: FieldBase & ComponentProps<"textarea">) {
  return <FieldShell {...{ label, errors, hint, className, props }} render={(p) => <textarea className={INPUT} {...p} />} />;
}

type Option = { value: string; label: string };

export function SelectField({
  label,
  errors,
  hint,
  className,
  options,
  placeholder,
  ...props
}: FieldBase & ComponentProps<"select"> & { options: Option[]; placeholder?: string }) {
  return (
    <FieldShell
      {...{ label, errors, hint, className, props }}
      render={(p) => (
        <select className={INPUT} {...p}>
          {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    />
  );
}

const CHECKBOX = "mt-0.5 h-4 w-4 rounded border-slate-300 text-brand-600";

export function CheckboxField({ label, errors, hint, className, ...props }: FieldBase & ComponentProps<"input">) {
  return <FieldShell inline {...{ label, errors, hint, className, props }} render={(p) => <input type="checkbox" className={CHECKBOX} {...p} />} />;
}
