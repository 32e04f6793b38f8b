// What is wrong with a form control, in our words: the browser's constraint checks (required,
// type=email/url/number, min/max, maxlength) without its own bubbles, which speak the browser's
// language ('Please fill out this field.') whatever the page's.

/** The parts of a control `fieldProblem` reads (an input, select or textarea). */
export interface CheckedControl {
  validity: Pick<
    ValidityState,
    | 'valid'
    | 'valueMissing'
    | 'typeMismatch'
    | 'badInput'
    | 'rangeUnderflow'
    | 'rangeOverflow'
    | 'stepMismatch'
    | 'tooLong'
    | 'tooShort'
    | 'patternMismatch'
  >;
  type: string;
  min?: string;
  max?: string;
  maxLength?: number;
  minLength?: number;
  step?: string;
}

const number = (v: string | undefined) => (v ? v.replace('.', ',') : v);

/** The Spanish message for an invalid control, or null when its value is fine. */
export function fieldProblem(c: CheckedControl): string | null {
  const v = c.validity;
  if (v.valid) return null;
  if (v.valueMissing) return c.type === 'checkbox' ? 'Marca esta casilla para seguir.' : 'Este campo es obligatorio.';
  if (v.badInput) return c.type === 'number' ? 'Escribe un número.' : 'El valor no es válido.';
  if (v.typeMismatch && c.type === 'email') return 'Escribe un email válido, como nombre@dominio.com.';
  if (v.typeMismatch && c.type === 'url') return 'Escribe una URL completa, que empiece por https://.';
  if (v.rangeUnderflow) return `Debe ser al menos ${number(c.min)}.`;
  if (v.rangeOverflow) return `Debe ser como máximo ${number(c.max)}.`;
  if (v.stepMismatch) return c.step && Number(c.step) === 1 ? 'Escribe un número entero.' : `Usa múltiplos de ${number(c.step)}.`;
  if (v.tooLong) return `Admite como máximo ${c.maxLength} caracteres.`;
  if (v.tooShort) return `Escribe al menos ${c.minLength} caracteres.`;
  return 'El valor no es válido.';
}
