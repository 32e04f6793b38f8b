// A form field: its label above the control, tied to it by `id` (clicking the label focuses the
// control, screen readers name the control by it), a required mark, an optional hint below and
// an optional error (`${id}-hint` and `${id}-error`: the control names them in aria-describedby).
import type { ReactNode, Ref } from 'react';
import { filterLabelClass, inputClass, labelClass } from './styles';
import { useFieldError } from './CheckedForm';

export function FormField({
  id,
  label,
  required,
  hint,
  error,
  className,
  filter,
  children,
}: {
  id: string;
  label: ReactNode;
  required?: boolean;
  hint?: ReactNode;
  /** What is wrong with the value, shown in red below the control. */
  error?: ReactNode;
  className?: string;
  /** In a report filter bar: its small upper-case label. */
  filter?: boolean;
  children: ReactNode;
}) {
  // In a CheckedForm, what it found wrong with this control (until the user edits it).
  const checked = useFieldError(id);
  const shown = error ?? checked;
  return (
    <div className={className}>
      <label htmlFor={id} className={filter ? filterLabelClass : labelClass}>
        {label}
        {required && (
          <span aria-hidden className="ml-0.5 text-red-500">
            *
          </span>
        )}
      </label>
      {children}
      {shown && (
        <p id={`${id}-error`} role={checked && !error ? 'alert' : undefined} className="mt-1 text-xs text-red-600">
          {shown}
        </p>
      )}
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-gray-500">
          {hint}
        </p>
      )}
    </div>
  );
}

/** A labelled input whose value the caller holds: FormField with its text, e-mail or password box. */
export function TextField(props: {
  id: string;
  label: ReactNode;
  value: string;
  onChange: (v: string) => void;
  type?: 'text' | 'email' | 'password';
  required?: boolean;
  autoComplete?: string;
  name?: string;
  inputRef?: Ref<HTMLInputElement>;
}) {
  return (
    <FormField id={props.id} label={props.label}>
      <input
        ref={props.inputRef}
        id={props.id}
        name={props.name}
        type={props.type ?? 'text'}
        required={props.required}
        autoComplete={props.autoComplete}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        className={inputClass}
      />
    </FormField>
  );
}
