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

/** What the shell hands its control: the id the label points at and the ARIA wiring. */
type ControlWiring = { id: string; "aria-invalid"?: true; "aria-describedby"?: string };

/**
 * The one field layout: label, control, hint and errors. The control gets `aria-invalid` when
 * there are errors and `aria-describedby` naming the errors and the hint (plus any ids the
 * caller already passes, such as conform's). `inline` puts the label after the control
 * (checkboxes).
 */
function FieldShell({
  id: idProp,
  describedBy,
  label,
  errors,
  hint,
  className = "",
  inline = false,
  control,
}: FieldBase & { id?: string; describedBy?: string; inline?: boolean; control: (wiring: ControlWiring) => ReactNode }) {
  const fallbackId = useId();
  const id = idProp ?? fallbackId;
  const errorId = errors?.some(Boolean) ? `${id}-error` : undefined;
  const hintId = hint ? `${id}-hint` : undefined;
  const ids = new Set([...(describedBy?.split(" ") ?? []), errorId, hintId].filter(Boolean));
  const wiring: ControlWiring = {
    id,
    "aria-invalid": errorId ? true : undefined,
    "aria-describedby": [...ids].join(" ") || undefined,
  };
  const labelElement = (
    <label htmlFor={id} className={inline ? "text-sm text-slate-700" : "mb-1 block text-sm font-medium text-slate-700"}>
      {label}
    </label>
  );
  return (
    <div className={className}>
      {inline ? (
        <div className="flex items-start gap-2">
          {control(wiring)}
          {labelElement}
        </div>
      ) : (
        <>
          {labelElement}
          {control(wiring)}
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

export function Field({ label, errors, hint, className, ...props }: FieldBase & ComponentProps<"input">) {
  return (
    <FieldShell
      {...{ label, errors, hint, className }}
      id={props.id}
      describedBy={props["aria-describedby"]}
      control={(wiring) => <input className={INPUT} {...props} {...wiring} />}
    />
  );
}

export function TextareaField({ label, errors, hint, className, ...props }: FieldBase & ComponentProps<"textarea">) {
  return (
    <FieldShell
      {...{ label, errors, hint, className }}
      id={props.id}
      describedBy={props["aria-describedby"]}
      control={(wiring) => <textarea className={INPUT} {...props} {...wiring} />}
    />
  );
}

export function SelectField({
  label,
  errors,
  hint,
  className,
  options,
  placeholder,
  ...props
}: FieldBase & ComponentProps<"select"> & { options: Array<{ value: string; label: string }>; placeholder?: string }) {
  return (
    <FieldShell
      {...{ label, errors, hint, className }}
      id={props.id}
      describedBy={props["aria-describedby"]}
      control={(wiring) => (
        <select className={INPUT} {...props} {...wiring}>
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

export function CheckboxField({ label, errors, hint, className, ...props }: FieldBase & ComponentProps<"input">) {
  return (
    <FieldShell
      {...{ label, errors, hint, className }}
      id={props.id}
      describedBy={props["aria-describedby"]}
      inline
      control={(wiring) => (
        <input type="checkbox" className="mt-0.5 h-4 w-4 rounded border-slate-300 text-brand-600" {...props} {...wiring} />
      )}
    />
  );
}
