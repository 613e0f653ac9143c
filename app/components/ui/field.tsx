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

/** Label, input, hint and errors wired together (aria-invalid, aria-describedby). */
export function Field({ label, errors, hint, className = "", ...inputProps }: FieldBase & ComponentProps<"input">) {
  const fallbackId = useId();
  const id = inputProps.id ?? fallbackId;
  const errorId = errors?.some(Boolean) ? `${id}-error` : undefined;
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        className={INPUT}
        aria-invalid={errorId ? true : undefined}
        aria-describedby={[errorId, hintId].filter(Boolean).join(" ") || undefined}
        {...inputProps}
      />
      {hint ? (
        <p id={hintId} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

export function TextareaField({ label, errors, hint, className = "", ...props }: FieldBase & ComponentProps<"textarea">) {
  const fallbackId = useId();
  const id = props.id ?? fallbackId;
  const errorId = errors?.some(Boolean) ? `${id}-error` : undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <textarea id={id} className={INPUT} aria-invalid={errorId ? true : undefined} aria-describedby={errorId} {...props} />
      {hint ? <p className="mt-1 text-xs text-slate-500">{hint}</p> : null}
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

export function SelectField({
  label,
  errors,
  className = "",
  options,
  placeholder,
  ...props
}: FieldBase & ComponentProps<"select"> & { options: Array<{ value: string; label: string }>; placeholder?: string }) {
  const fallbackId = useId();
  const id = props.id ?? fallbackId;
  const errorId = errors?.some(Boolean) ? `${id}-error` : undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <select id={id} className={INPUT} aria-invalid={errorId ? true : undefined} aria-describedby={errorId} {...props}>
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

export function CheckboxField({ label, errors, className = "", ...props }: FieldBase & ComponentProps<"input">) {
  const fallbackId = useId();
  const id = props.id ?? fallbackId;
  const errorId = errors?.some(Boolean) ? `${id}-error` : undefined;
  return (
    <div className={className}>
      <div className="flex items-start gap-2">
        <input
          id={id}
          type="checkbox"
          className="mt-0.5 h-4 w-4 rounded border-slate-300 text-brand-600"
          aria-invalid={errorId ? true : undefined}
          aria-describedby={errorId}
          {...props}
        />
        <label htmlFor={id} className="text-sm text-slate-700">
          {label}
        </label>
      </div>
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}
