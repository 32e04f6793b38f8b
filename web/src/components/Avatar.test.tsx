// The avatar is drawn locally: the e-mail's initials on a colour from its hash, readable in
// white, the same colour for the same address, and nothing that would fetch from elsewhere.
import { describe, expect, test } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { Avatar, avatarColour, initials } from './Avatar';

/** WCAG contrast of white text on an `hsl(h s% l%)` colour. */
function contrastWithWhite(hsl: string): number {
  const [h, s, l] = hsl.match(/[\d.]+/g)!.map(Number);
  const a = (s / 100) * Math.min(l / 100, 1 - l / 100);
  const channel = (n: number) => {
    const k = (n + h / 30) % 12;
    const c = l / 100 - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const lum = 0.2126 * channel(0) + 0.7152 * channel(8) + 0.0722 * channel(4);
  return 1.05 / (lum + 0.05);
}

describe('Avatar', () => {
  test('shows the initials on a coloured circle and refers to no image or address outside the page', () => {
    const html = renderToStaticMarkup(<Avatar email="ana.gomez@example.com" />);
    expect(html).toContain('>AG</span>');
    expect(html).not.toMatch(/<img|https?:|url\(/);
    expect(html).not.toContain('example.com');
    expect(html).toContain(`background-color:${avatarColour('ana.gomez@example.com')}`);
  });

  test('the same address always gets the same colour (whatever its case); different addresses spread over the hues', () => {
    expect(avatarColour('Ana.Gomez@Example.com')).toBe(avatarColour('ana.gomez@example.com'));
    const hues = new Set(Array.from({ length: 50 }, (_, i) => avatarColour(`user${i}@adops.local`)));
    expect(hues.size).toBeGreaterThan(40);
  });

  test('white initials stay readable on every colour it can pick (contrast at least 4.5:1)', () => {
    for (let i = 0; i < 2000; i++) expect(contrastWithWhite(avatarColour(`u${i}@x.es`))).toBeGreaterThanOrEqual(4.5);
  });

  test('initials come from the name before the @', () => {
    expect(initials('admin@adops.local')).toBe('AD');
    expect(initials('bea_ruiz@x.es')).toBe('BR');
  });
});
