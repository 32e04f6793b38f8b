// A form field: its label above the control, tied to it by `id` (clicking the label focuses the
// control, screen readers name the control by it), a required mark and an optional hint below.
import type { ReactNode } from 'react';
import { filterLabelClass, labelClass } from './styles';

export function FormField({
  id,
  label,
  required,
  hint,
  className,
  filter,
  children,
}: {
  id: string;
  label: ReactNode;
  required?: boolean;
  hint?: ReactNode;
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
      {hint && <p className="mt-1 text-xs text-gray-500">{hint}</p>}
    </div>
  );
}
