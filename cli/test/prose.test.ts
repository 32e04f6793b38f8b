// Prose on a terminal wraps between words to the width it is given, keeps a paragraph's lead and
// hangs continuation lines; a figure never leaves its unit on the next line.
import { expect, it } from 'vitest';
import { wrapProse } from '../src/text.js';

it('a figure keeps its percent sign or currency code on its line', async () => {
  // Plain word wrapping would end the first line at '135,1' (21 columns) and start the next with '%'.
  const roi = await wrapProse('Beneficio y ROI 135,1 % en la semana', 21);
  expect(roi.split('\n')).toEqual(['Beneficio y ROI', '135,1 % en la semana']);
  const spend = await wrapProse('Gasto de la cuenta 67,31 EUR hoy', 24);
  expect(spend.split('\n')).toEqual(['Gasto de la cuenta', '67,31 EUR hoy']);
  // Where they fit, the unit stays after its plain space.
  expect(await wrapProse('ROI 135,1 % y 67,31 EUR', 80)).toBe('ROI 135,1 % y 67,31 EUR');
});

it('wraps at word boundaries within the width, keeping the lead and hanging the rest', async () => {
  const text = '  Por qué: el gasto de la campaña no está sincronizado para todos los días del periodo';
  const out = (await wrapProse(text, 30, '    ')).split('\n');
  expect(out[0].startsWith('  Por qué:')).toBe(true);
  for (const line of out.slice(1)) expect(line.startsWith('    ') && line[4] !== ' ').toBe(true);
  for (const line of out) expect(line.length).toBeLessThanOrEqual(30);
  expect(out.map((l) => l.trim()).join(' ')).toBe(text.trim());
});
