// The live referrer log on the terminal: lines already shown are printed once through
// <Static> (keyed by event id, in capped batches), under them a live footer with the mode
// (SSE or Polling), events/s and the last minute's top referrers and countries. q quits.
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Box, Static, Text, useApp, useInput } from 'ink';
import {
  BOT_REASON_LABELS,
  formatDateTimeDMY,
  formatNumber,
  formatProfitMetric,
  recordKey,
  type BotReason,
  type LiveRecord,
  type ReferrerFilter,
} from '@adops/core/lite';
import type { LiveTail, TailStatus } from '../live-tail.js';
import { displayWidth } from './Table.js';
import { LiveStats } from './live-stats.js';

/** Lines kept for <Static> before starting a new batch (already printed ones are dropped). */
export const STATIC_BATCH = 500;
/** Lines held while paused; beyond it the oldest are dropped (and counted). */
export const HELD_MAX = 5000;

interface Line {
  key: string;
  text: string;
  header?: boolean;
}

function fit(text: string, width: number): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: an ESC in a referrer must not reach the terminal
  const clean = text.replace(/[\r\n\t\u001b]+/g, ' ');
  if (displayWidth(clean) <= width) return clean + ' '.repeat(width - displayWidth(clean));
  let out = '';
  for (const ch of clean) {
    if (displayWidth(out + ch) > width - 1) break;
    out += ch;
  }
  return `${out}…${' '.repeat(Math.max(0, width - displayWidth(out) - 1))}`;
}

type TailColumn = 'date' | 'zone' | 'value' | 'tq' | 'source' | 'referrer' | 'keyword' | 'ip' | 'country' | 'bot';

/** The columns left to right, their headers, and the fewest characters each is drawn in. */
const ORDER: readonly TailColumn[] = ['date', 'zone', 'value', 'tq', 'source', 'referrer', 'keyword', 'ip', 'country', 'bot'];
const HEADERS: Record<TailColumn, string> = {
  date: 'Date',
  zone: 'Zone ID',
  value: 'Valor',
  tq: 'TQ',
  source: 'Source',
  referrer: 'Referrer',
  keyword: 'Keyword',
  ip: 'IP',
  country: 'Country',
  bot: 'Bot',
};
const MIN: Record<TailColumn, number> = { date: 14, zone: 8, value: 8, tq: 4, source: 10, referrer: 16, keyword: 8, ip: 15, country: 7, bot: 12 };
/** Which columns stay on a narrow terminal, most needed first (the last ones give way); 'bot' only with --bots, 'value' and 'tq' only with --value. */
const KEPT: readonly TailColumn[] = ['date', 'zone', 'value', 'tq', 'referrer', 'country', 'bot', 'source', 'keyword', 'ip'];
/** From this width the date shows its year (YYYY-MM-DD HH:mm:ss), below it MM-DD HH:mm:ss. */
const LONG_DATE = 110;

export interface TailLayout {
  columns: Array<{ key: TailColumn; width: number }>;
  longDate: boolean;
}

/**
 * The columns a terminal `width` wide shows, and their widths: every line fits (80 columns
 * drop the IP first, then the keyword, then the source); what is left widens the referrer.
 * With `bots` (adops tail --bots) a 'Bot' column names why an event was flagged; with `value`
 * (adops tail --value) 'Valor' and 'TQ' show what the visit is worth (the server's figures).
 */
export function tailLayout(width: number, bots = false, value = false): TailLayout {
  const longDate = width >= LONG_DATE;
  const min = { ...MIN, date: longDate ? 19 : 14 };
  const available = Math.max(40, width - 1);
  const kept = KEPT.filter((k) => (bots || k !== 'bot') && (value || (k !== 'value' && k !== 'tq')));
  const needed = () => kept.reduce((sum, k) => sum + min[k], 0) + 2 * (kept.length - 1);
  while (kept.length > 3 && needed() > available) kept.pop();
  const widths = { ...min };
  let extra = Math.max(0, available - needed());
  const grow = (key: TailColumn, most: number) => {
    if (!kept.includes(key)) return;
    const add = Math.min(most, extra);
    widths[key] += add;
    extra -= add;
  };
  grow('bot', 8); // the reasons' labels (16 characters) before anything else widens
  grow('source', Math.min(12, Math.floor(extra * 0.25)));
  grow('keyword', Math.min(10, Math.floor(extra * 0.2)));
  grow('referrer', extra);
  return { columns: ORDER.filter((k) => kept.includes(k)).map((key) => ({ key, width: widths[key] })), longDate };
}

const dash = (v: string | number | null | undefined) => (v == null || v === '' ? '-' : String(v));

/** A value as the registry formats revenue per visit and TQ ('-' when unknown). */
const money = (v: number | null | undefined) => formatProfitMetric('rpv', v ?? null);

export function formatTailLine(r: LiveRecord, tz: string, width: number, bots = false, value = false): string {
  const layout = tailLayout(width, bots, value);
  const date = formatDateTimeDMY(r.seen_at, tz, { seconds: true });
  const text: Record<TailColumn, string> = {
    date: layout.longDate ? date : `${date.slice(0, 5)}${date.slice(10)}`,
    zone: dash(r.zone_id),
    value: money(r.value),
    tq: formatProfitMetric('tq', r.tq ?? null),
    source: dash(r.parent_domain),
    referrer: dash(r.referrer),
    keyword: dash(r.keyword),
    ip: dash(r.ip),
    country: dash(r.country),
    bot: r.reason ? (BOT_REASON_LABELS[r.reason as BotReason] ?? r.reason) : '',
  };
  return layout.columns
    .map((c) => (c.key === 'value' || c.key === 'tq' ? text[c.key].padStart(c.width) : fit(text[c.key], c.width)))
    .join('  ')
    .trimEnd();
}

export function headerLine(width: number, bots = false, value = false): string {
  return tailLayout(width, bots, value)
    .columns.map((c) => (c.key === 'value' || c.key === 'tq' ? HEADERS[c.key].padStart(c.width) : fit(HEADERS[c.key], c.width)))
    .join('  ')
    .trimEnd();
}

function filterText(filter: ReferrerFilter, value: boolean): string {
  const parts: string[] = [];
  if (filter.zoneId) parts.push(`zona ${filter.zoneId}`);
  if (filter.advertiser) parts.push(`advertiser ${filter.advertiser}`);
  if (filter.publisher) parts.push(`publisher ${filter.publisher}`);
  if (filter.parentDomain) parts.push(`source ${filter.parentDomain}`);
  if (filter.include_bots) parts.push('con bots');
  if (value) parts.push('con valor');
  return parts.length ? parts.join(' · ') : 'sin filtros';
}

const BADGE: Record<TailStatus['mode'], { text: string; color: string }> = {
  connecting: { text: ' Conectando… ', color: 'gray' },
  sse: { text: ' SSE ', color: 'green' },
  polling: { text: ' Polling ', color: 'yellow' },
};

export interface TailProps {
  tail: LiveTail;
  tz: string;
  filter: ReferrerFilter;
  interactive: boolean;
  width: number;
  /** 'Valor' and 'TQ' columns (adops tail --value). */
  value?: boolean;
  /** The clock (tests fix it). */
  now?: () => number;
}

export function Tail({ tail, tz, filter, interactive, width, value = false, now = Date.now }: TailProps) {
  const bots = filter.include_bots === true;
  const { exit } = useApp();
  const [batch, setBatch] = useState<{ n: number; lines: Line[] }>({
    n: 0,
    lines: [{ key: 'header', text: headerLine(width, bots, value), header: true }],
  });
  const printed = useRef({ n: 0, count: 0 });
  const stats = useRef(new LiveStats());
  const [status, setStatus] = useState<TailStatus>(tail.status);
  const [, setTick] = useState(0);
  // Paused (p or space): new lines wait here, at most HELD_MAX (the oldest give way, counted).
  const [paused, setPaused] = useState(false);
  const held = useRef<{ paused: boolean; lines: Line[]; dropped: number }>({ paused: false, lines: [], dropped: 0 });

  // <Static> prints each line once; this records how many of the batch are on screen.
  useLayoutEffect(() => {
    printed.current = { n: batch.n, count: batch.lines.length };
  });

  /** Appends lines to what <Static> prints (a new batch past STATIC_BATCH). */
  const show = (lines: Line[]) =>
    setBatch((b) => {
      const all = [...b.lines, ...lines];
      if (all.length <= STATIC_BATCH) return { n: b.n, lines: all };
      // A new <Static> (new key) prints only what the previous one had not printed yet.
      const done = printed.current.n === b.n ? printed.current.count : 0;
      return { n: b.n + 1, lines: all.slice(done) };
    });

  // biome-ignore lint/correctness/useExhaustiveDependencies: one subscription per tail: time zone, width and clock are fixed for the screen's life
  useEffect(() => {
    const offEvents = tail.onEvents((records) => {
      stats.current.add(records, now());
      const lines = records.map((r) => ({ key: r.id !== undefined ? `e${r.id}` : recordKey(r), text: formatTailLine(r, tz, width, bots, value) }));
      const h = held.current;
      if (!h.paused) return show(lines);
      h.lines.push(...lines);
      if (h.lines.length > HELD_MAX) h.dropped += h.lines.splice(0, h.lines.length - HELD_MAX).length;
      setTick((t) => t + 1);
    });
    const offStatus = tail.onStatus(setStatus);
    const timer = setInterval(() => setTick((t) => t + 1), 1000);
    tail.done.then(
      () => exit(),
      () => exit(),
    );
    return () => {
      offEvents();
      offStatus();
      clearInterval(timer);
    };
  }, [tail]);

  useInput(
    (input, key) => {
      if (input === 'q' || key.escape || (key.ctrl && input === 'c')) return tail.stop();
      if (input !== 'p' && input !== ' ') return;
      const h = held.current;
      if (!h.paused) {
        held.current = { paused: true, lines: [], dropped: 0 };
        return setPaused(true);
      }
      const waiting = h.dropped
        ? [{ key: `dropped-${h.lines[0]?.key ?? Date.now()}`, text: `… ${formatNumber(h.dropped, 0)} eventos omitidos durante la pausa` }, ...h.lines]
        : h.lines;
      held.current = { paused: false, lines: [], dropped: 0 };
      setPaused(false);
      if (waiting.length) show(waiting);
    },
    { isActive: interactive },
  );

  const t = now();
  const rate = stats.current.rate(t);
  const topHosts = stats.current.top('host', t);
  const topCountries = stats.current.top('country', t);
  const badge = BADGE[status.mode];
  const list = (items: Array<[string, number]>) => (items.length ? items.map(([name, n]) => `${name} ${n}`).join(' · ') : '-');

  return (
    <Box flexDirection="column">
      <Static key={batch.n} items={batch.lines}>
        {(line) => (
          <Text key={line.key} bold={line.header} wrap="truncate-end">
            {line.text}
          </Text>
        )}
      </Static>
      <Box flexDirection="column" marginTop={1}>
        <Text dimColor>{'─'.repeat(Math.max(10, Math.min(width, 120) - 1))}</Text>
        {/* The column names stay in view, under the newest lines. */}
        <Text bold wrap="truncate-end">
          {headerLine(width, bots, value)}
        </Text>
        <Box>
          <Text inverse color={paused ? 'cyan' : badge.color}>
            {paused ? ' EN PAUSA ' : badge.text}
          </Text>
          <Text>
            {' '}
            {formatNumber(rate, 1)} eventos/s · {formatNumber(stats.current.total, 0)} recibidos · {filterText(filter, value)}
          </Text>
        </Box>
        {status.detail ? <Text color="yellow">{status.detail}</Text> : null}
        <Text wrap="truncate-end">Top referrers (último minuto): {list(topHosts)}</Text>
        <Text wrap="truncate-end">Top países (último minuto): {list(topCountries)}</Text>
        {paused ? (
          <Text color="cyan">{`${formatNumber(held.current.lines.length, 0)} eventos esperando${held.current.dropped ? ` (${formatNumber(held.current.dropped, 0)} omitidos)` : ''} · p reanuda`}</Text>
        ) : null}
        {interactive ? <Text dimColor>p pausa · q salir</Text> : null}
      </Box>
    </Box>
  );
}
