// 'Columnas (n/m)': a menu of checkboxes, one per column a table lets the user hide, plus
// 'Mostrar todas'. Closes on Escape or a click outside.
import { useEffect, useId, useRef, useState } from 'react';
import { secondaryButton } from '../styles';

export interface ColumnChooserProps {
  columns: ReadonlyArray<{ key: string; header: string }>;
  hidden: ReadonlySet<string>;
  onToggle: (key: string) => void;
  onShowAll: () => void;
}

export function ColumnChooser({ columns, hidden, onToggle, onShowAll }: ColumnChooserProps) {
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const id = useId();
  useEffect(() => {
    if (!open) return;
    const outside = (e: MouseEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', outside);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', outside);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);
  const shown = columns.filter((c) => !hidden.has(c.key)).length;

  return (
    <div ref={box} className="relative">
      <button type="button" className={secondaryButton} aria-expanded={open} aria-controls={id} onClick={() => setOpen((o) => !o)}>
        Columnas ({shown}/{columns.length})
      </button>
      {open && (
        <fieldset
          id={id}
          aria-label="Columnas"
          className="absolute right-0 z-20 mt-1 max-h-80 w-56 max-w-[calc(100vw-3rem)] overflow-y-auto rounded-md border border-gray-200 bg-white p-2 shadow-lg"
        >
          {columns.map((c) => (
            <label key={c.key} className="flex cursor-pointer items-center gap-2 rounded px-2 py-1 text-sm text-gray-700 hover:bg-gray-50">
              <input
                type="checkbox"
                checked={!hidden.has(c.key)}
                onChange={() => onToggle(c.key)}
                className="h-4 w-4 rounded border-gray-300 text-blue-600 focus:ring-blue-500"
              />
              {c.header}
            </label>
          ))}
          <button
            type="button"
            className="mt-1 w-full rounded px-2 py-1 text-left text-sm font-medium text-blue-600 hover:bg-blue-50"
            onClick={onShowAll}
          >
            Mostrar todas
          </button>
        </fieldset>
      )}
    </div>
  );
}
