// A form field: its label above the control, tied to it by `id` (clicking the label focuses the
// control, screen readers name the control by it), a required mark, an optional hint below and
// an optional error (`${id}-hint` and `${id}-error`: the control names them in aria-describedby).
import type { ReactNode } from 'react';
import { filterLabelClass, labelClass } from './styles';

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
      {error && (
        <p id={`${id}-error`} className="mt-1 text-xs text-red-600">
          {error}
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
