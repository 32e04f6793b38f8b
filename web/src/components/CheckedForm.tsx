// A form that checks its fields itself (noValidate: no browser bubbles in the browser's language)
// and says what is wrong in Spanish: under the field when a FormField holds it, else in a
// role=alert line under the form naming the field. Each message stays until that field is
// edited; the first wrong field takes the focus. onSubmit runs only when every field is fine.
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type FormEvent, type FormHTMLAttributes } from 'react';
import { fieldProblem } from '../lib/validity';

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

interface FieldErrors {
  errors: Readonly<Record<string, string>>;
  /** A FormField shows its control's message itself; returns the unregister. */
  register(id: string): () => void;
}

const FieldErrorsContext = createContext<FieldErrors | null>(null);

/** The message the enclosing CheckedForm holds for the control `id`, registered as shown inline. */
export function useFieldError(id: string): string | undefined {
  const ctx = useContext(FieldErrorsContext);
  const register = ctx?.register;
  useEffect(() => register?.(id), [register, id]);
  return ctx?.errors[id];
}

const isControl = (el: Element): el is Control =>
  el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement;

function labelOf(el: Control): string {
  const text = el.labels?.[0]?.textContent ?? el.getAttribute('aria-label') ?? el.name ?? '';
  return text.replace(/\*$/, '').trim();
}

export function CheckedForm({ onSubmit, children, ...rest }: Omit<FormHTMLAttributes<HTMLFormElement>, 'noValidate'>) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  /** Problems of fields no FormField shows: label and message, under the form. */
  const [loose, setLoose] = useState<{ key: string; text: string }[]>([]);
  const inline = useRef(new Set<string>());
  const register = useCallback((id: string) => {
    inline.current.add(id);
    return () => void inline.current.delete(id);
  }, []);

  function submit(e: FormEvent<HTMLFormElement>) {
    const found: Record<string, string> = {};
    const outside: { key: string; text: string }[] = [];
    let first: Control | null = null;
    for (const el of Array.from(e.currentTarget.elements)) {
      if (!isControl(el) || el.disabled) continue;
      const problem = fieldProblem(el);
      el.toggleAttribute('aria-invalid', problem !== null);
      if (!problem) continue;
      first ??= el;
      if (el.id && inline.current.has(el.id)) found[el.id] = problem;
      else outside.push({ key: el.id || el.name, text: `${labelOf(el)}: ${problem}` });
    }
    setErrors(found);
    setLoose(outside);
    if (first) {
      e.preventDefault();
      first.focus();
      return;
    }
    onSubmit?.(e);
  }

  /** Editing a field takes its message away (the user acted on it). */
  function edited(e: FormEvent<HTMLFormElement>) {
    const el = e.target as Element;
    if (!isControl(el) || !el.hasAttribute('aria-invalid')) return;
    el.removeAttribute('aria-invalid');
    const key = el.id || el.name;
    setErrors(({ [key]: _, ...others }) => others);
    setLoose((list) => list.filter((l) => l.key !== key));
  }

  const value = useMemo(() => ({ errors, register }), [errors, register]);
  return (
    <FieldErrorsContext.Provider value={value}>
      <form {...rest} noValidate onSubmit={submit} onInput={edited} onChange={edited}>
        {children}
        {loose.length > 0 && (
          <div role="alert" className="basis-full text-sm text-red-600">
            {loose.map((l) => (
              <p key={l.key}>{l.text}</p>
            ))}
          </div>
        )}
      </form>
    </FieldErrorsContext.Provider>
  );
}
