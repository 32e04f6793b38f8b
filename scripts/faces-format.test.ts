// Faces never format a figure themselves: every number a screen, the terminal or an export shows
// goes through core's formatters (format.ts, metrics.ts), so the web and `adops` cannot differ on
// decimals, separators or currency. A number formatted by hand in web/src or cli/src fails here,
// unless it is listed below with why it is not a figure.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

/** file → why its hand formatting is not a report figure. */
const NOT_FIGURES: Record<string, string> = {
  'web/src/components/campaigns/ImagePicker.tsx': "an uploaded file's size in KB",
  'web/src/components/dashboard/TrendsChart.tsx': "the chart axis' compact ticks (each point's exact figure is in its tooltip, through core)",
  'cli/src/commands/import.ts': "an upload's progress: percent sent, MB and rows per second",
  'cli/src/commands/backup.ts': "an archive's size",
  'cli/src/commands/migrate.ts': "a migration's copy time and the stores' check sums, side by side for an operator",
  'cli/src/commands/profit.ts': 'an exchange rate, a setting shown with all its stored decimals (not a figure: core/src/rounding.ts)',
};

/** Hand formatting: a number's own formatters, or a '%' / '€' glued to a value (`${x}%`, x + ' €'). */
const BY_HAND = /\.toFixed\(|\.toLocaleString\(|new Intl\.NumberFormat\(|\$\{[^}]*\}\s?[%€]|\+\s*['"`]\s?[%€]|['"`][%€]\s?['"`]\s*\+/;

/** A '%' in a CSS length (a bar's width) sizes a shape: it is not a figure shown. */
const CSS_LENGTH = /\b(width|height|left|right|top|bottom|flexBasis)\s*:\s*`\$\{[^}]*\}%`/g;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

test('web and cli format no figure by hand: core formats every one', () => {
  const found: string[] = [];
  for (const face of ['web/src', 'cli/src'])
    for (const file of sources(path.join(root, face))) {
      const rel = path.relative(root, file);
      if (rel in NOT_FIGURES) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (BY_HAND.test(line.replace(CSS_LENGTH, ''))) found.push(`${rel}:${i + 1}: ${line.trim()}`);
        });
    }
  expect(found).toEqual([]);
});

test('every file excused still formats by hand (the list does not outlive its reasons)', () => {
  for (const rel of Object.keys(NOT_FIGURES)) expect(BY_HAND.test(readFileSync(path.join(root, rel), 'utf8')), rel).toBe(true);
});

test('the grep catches a figure glued to its sign by hand, not a bar sized in percent', () => {
  const byHand = (line: string) => BY_HAND.test(line.replace(CSS_LENGTH, ''));
  const $ = '$'; // source text holding a placeholder, built so it is not one here
  for (const line of [`{\`${$}{row.ctr}%\`}`, "rate + '%'", "total + ' €'", "'€' + price", 'x.toFixed(2)', 'new Intl.NumberFormat("es")'])
    expect(byHand(line), line).toBe(true);
  for (const line of [`style={{ width: \`${$}{share}%\` }}`, 'formatPercent(row.ctr, 2)', "label: 'CTR%'"]) expect(byHand(line), line).toBe(false);
});
