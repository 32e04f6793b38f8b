// A date field that shows and takes dd/MM/yyyy whatever the browser's language (a native
// <input type=date> shows 11/17/2026 in an English browser): a text field checked as typed —
// dd/MM/yyyy, or YYYY-MM-DD pasted from elsewhere — plus a calendar button opening the
// browser's own picker. The value is a day ('YYYY-MM-DD'), or '' while the text is no date.
import { useEffect, useRef, useState } from 'react';
import { formatDateDMY, isValidYmd, parseDateDMY } from '@adops/core';
import { inputClass } from './styles';

/** dd/MM/yyyy or YYYY-MM-DD → 'YYYY-MM-DD'; null when the text is not a day. */
export function parseDayText(text: string): string | null {
  const trimmed = text.trim();
  return isValidYmd(trimmed) ? trimmed : parseDateDMY(trimmed);
}

export interface DateInputProps {
  id: string;
  /** The chosen day ('YYYY-MM-DD'), or '' for none. */
  value: string;
  onChange: (value: string) => void;
  invalid?: boolean;
  disabled?: boolean;
  className?: string;
  /** Named for the calendar button ('Elegir fecha Desde'). */
  label: string;
}

export function DateInput({ id, value, onChange, invalid, disabled, className = '', label }: DateInputProps) {
  const [text, setText] = useState(() => (value ? formatDateDMY(value) : ''));
  const picker = useRef<HTMLInputElement>(null);

  // A new value from outside (a preset, Reset, a link) replaces what is typed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new value from outside replaces what is typed, never the typing itself
  useEffect(() => {
    if (parseDayText(text) !== (value || null)) setText(value ? formatDateDMY(value) : '');
  }, [value]);

  const bad = invalid || (text !== '' && parseDayText(text) === null);

  const openPicker = () => {
    const input = picker.current;
    if (!input) return;
    try {
      input.showPicker();
    } catch {
      input.focus();
    }
  };

  return (
    <div className="relative">
      <input
        id={id}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        placeholder="dd/mm/aaaa"
        maxLength={10}
        value={text}
        disabled={disabled}
        aria-invalid={bad || undefined}
        onChange={(e) => {
          setText(e.target.value);
          onChange(parseDayText(e.target.value) ?? '');
        }}
        onBlur={() => {
          const ymd = parseDayText(text);
          if (ymd) setText(formatDateDMY(ymd));
        }}
        className={`${inputClass} pr-9 tabular-nums ${bad ? 'border-red-400 focus:border-red-500 focus:ring-red-500' : ''} ${className}`}
      />
      <button
        type="button"
        onClick={openPicker}
        disabled={disabled}
        aria-label={`Elegir fecha ${label}`}
        className="absolute inset-y-0 right-0 flex items-center px-2 text-gray-500 hover:text-blue-600 disabled:opacity-50"
      >
        <svg className="h-4 w-4" viewBox="0 0 20 20" fill="currentColor" aria-hidden>
          <path
            fillRule="evenodd"
            d="M5.75 2a.75.75 0 01.75.75V4h7V2.75a.75.75 0 011.5 0V4h.25A2.75 2.75 0 0118 6.75v8.5A2.75 2.75 0 0115.25 18H4.75A2.75 2.75 0 012 15.25v-8.5A2.75 2.75 0 014.75 4H5V2.75A.75.75 0 015.75 2zm-1 5.5c-.69 0-1.25.56-1.25 1.25v6.5c0 .69.56 1.25 1.25 1.25h10.5c.69 0 1.25-.56 1.25-1.25v-6.5c0-.69-.56-1.25-1.25-1.25H4.75z"
            clipRule="evenodd"
          />
        </svg>
      </button>
      <input
        ref={picker}
        type="date"
        tabIndex={-1}
        aria-hidden
        value={value}
        onChange={(e) => {
          const ymd = e.target.value;
          if (!ymd) return;
          setText(formatDateDMY(ymd));
          onChange(ymd);
        }}
        className="pointer-events-none absolute bottom-0 right-0 h-0 w-0 opacity-0"
      />
    </div>
  );
}
