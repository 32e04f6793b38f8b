// The 'Mostrar' page-size selector (10/25/50/100 unless told otherwise).
import { useId } from 'react';
import { PAGE_SIZES } from '@adops/core';

export interface PageSizeSelectProps {
  value: number;
  onChange: (size: number) => void;
  options?: readonly number[];
}

export function PageSizeSelect({ value, onChange, options = PAGE_SIZES }: PageSizeSelectProps) {
  const id = useId();
  return (
    <div className="flex items-center gap-2 text-sm text-gray-600">
      <label htmlFor={id}>Mostrar</label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
        className="rounded-md border border-gray-300 bg-white px-2 py-1 text-sm text-gray-800 focus:border-blue-500 focus:outline-none focus:ring-1 focus:ring-blue-500"
      >
        {options.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
    </div>
  );
}
