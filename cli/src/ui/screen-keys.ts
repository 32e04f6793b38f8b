// The keyboard of the report screens, as k9s, lazygit and htop read it: each key of a chunk
// (arrows, Home/End/PgUp/PgDn in every terminal's spelling), the key line packed between its
// items at the terminal's width, and the in-screen filter (`/`) over the rows on screen.
import type { Column } from './Table.js';
import { displayWidth } from './Table.js';

/** The keys a screen reads besides printable ones. */
export interface KeyFlags {
  leftArrow?: boolean;
  rightArrow?: boolean;
  tab?: boolean;
  escape?: boolean;
  ctrl?: boolean;
  home?: boolean;
  end?: boolean;
  pageUp?: boolean;
  pageDown?: boolean;
  backspace?: boolean;
  return?: boolean;
}

/** ESC sequences → key: xterm (ESC [ H / ESC O H), VT220 (ESC [ 1~ …), rxvt (ESC [ 7~ …). */
const SEQUENCES: Record<string, KeyFlags> = {
  '[C': { rightArrow: true },
  OC: { rightArrow: true },
  '[D': { leftArrow: true },
  OD: { leftArrow: true },
  '[H': { home: true },
  OH: { home: true },
  '[1~': { home: true },
  '[7~': { home: true },
  '[F': { end: true },
  OF: { end: true },
  '[4~': { end: true },
  '[8~': { end: true },
  '[5~': { pageUp: true },
  '[6~': { pageDown: true },
};

/**
 * A chunk read from the terminal → each key in it: keys typed faster than the screen reads
 * arrive together ('nnn', three → in a row) and each one counts.
 */
export function splitKeys(chunk: string): Array<{ input: string; key: KeyFlags }> {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a terminal's keys arrive as ESC sequences
  return (chunk.match(/\u001b\[[0-9;]*[A-Za-z~]|\u001bO[A-Za-z]|[\s\S]/g) ?? []).flatMap((token) => {
    if (token.length > 1) {
      const key = SEQUENCES[token.slice(1)];
      return key ? [{ input: '', key }] : [];
    }
    if (token === '\t') return [{ input: '', key: { tab: true } }];
    if (token === '\u001b') return [{ input: '', key: { escape: true } }];
    if (token === '\u0003') return [{ input: 'c', key: { ctrl: true } }];
    if (token === '\r' || token === '\n') return [{ input: '', key: { return: true } }];
    if (token === '\u007f' || token === '\b') return [{ input: '', key: { backspace: true } }];
    return [{ input: token, key: {} }];
  });
}

const GAP = '   ';

/**
 * The key line's (or the status line's) items packed into lines narrower than `width`: a line
 * breaks between items, never inside one (an item wider than the terminal has a line of its own).
 */
export function keyLines(items: readonly string[], width: number | undefined, gap = GAP): string[] {
  if (!width) return [items.join(gap)];
  const lines: string[] = [];
  let line = '';
  for (const item of items) {
    if (line && displayWidth(line + gap + item) > width - 1) {
      lines.push(line);
      line = item;
    } else line = line ? line + gap + item : item;
  }
  if (line) lines.push(line);
  return lines;
}

/** Case and accents aside, as the filters of the commands read values ('galicia' finds 'Galícia'). */
const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** The rows whose cells, as drawn, contain `text` (case and accents aside); all of them for ''. */
export function filterRows<Row>(rows: readonly Row[], columns: ReadonlyArray<Column<Row>>, text: string): readonly Row[] {
  const wanted = fold(text.trim());
  if (!wanted) return rows;
  return rows.filter((row) =>
    columns.some((c) => {
      const value = (row as Record<string, unknown>)[c.key];
      const cell = c.format ? c.format(value, row) : value == null ? '' : String(value);
      return fold(cell).includes(wanted);
    }),
  );
}
