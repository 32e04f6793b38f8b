// The live referrer log on the terminal: lines already shown are printed once through
// <Static> (keyed by event id, in capped batches), under them a live footer with the mode
// (SSE or Polling), events/s and the last minute's top referrers and countries. q quits.
import React, { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Box, Static, Text, useApp, useInput } from 'ink';
import { formatDateTime, formatNumber, recordKey, type LiveRecord, type ReferrerFilter } from '@adops/core';
import type { LiveTail, TailStatus } from '../commands/tail.js';
import { displayWidth } from './Table.js';
import { LiveStats } from './live-stats.js';

/** Lines kept for <Static> before starting a new batch (already printed ones are dropped). */
export const STATIC_BATCH = 500;

interface Line {
  key: string;
  text: string;
  header?: boolean;
}

function fit(text: string, width: number): string {
  const clean = text.replace(/[\r\n\t\u001b]+/g, ' ');
  if (displayWidth(clean) <= width) return clean + ' '.repeat(width - displayWidth(clean));
  let out = '';
  for (const ch of clean) {
    if (displayWidth(out + ch) > width - 1) break;
    out += ch;
  }
  return out + '…' + ' '.repeat(Math.max(0, width - displayWidth(out) - 1));
}

/** Column widths for a terminal width: source, referrer and keyword share what is left. */
export function tailLayout(width: number) {
  const fixed = { date: 16, zone: 8, ip: 15, country: 7 };
  const gaps = 2 * 6;
  const rest = Math.max(40, width - 1 - gaps - Object.values(fixed).reduce((a, b) => a + b, 0));
  const source = Math.min(22, Math.max(10, Math.floor(rest * 0.25)));
  const keyword = Math.min(18, Math.max(8, Math.floor(rest * 0.2)));
  return { ...fixed, source, keyword, referrer: rest - source - keyword };
}

const dash = (v: string | number | null | undefined) => (v == null || v === '' ? '-' : String(v));

export function formatTailLine(r: LiveRecord, tz: string, width: number): string {
  const w = tailLayout(width);
  return [
    fit(formatDateTime(r.seen_at, tz), w.date),
    fit(dash(r.zone_id), w.zone),
    fit(dash(r.parent_domain), w.source),
    fit(dash(r.referrer), w.referrer),
    fit(dash(r.keyword), w.keyword),
    fit(dash(r.ip), w.ip),
    fit(dash(r.country), w.country),
  ]
    .join('  ')
    .trimEnd();
}

function headerLine(width: number): string {
  const w = tailLayout(width);
  return [
    fit('Date', w.date),
    fit('Zone ID', w.zone),
    fit('Source', w.source),
    fit('Referrer', w.referrer),
    fit('Keyword', w.keyword),
    fit('IP', w.ip),
    fit('Country', w.country),
  ]
    .join('  ')
    .trimEnd();
}

function filterText(filter: ReferrerFilter): string {
  const parts: string[] = [];
  if (filter.zoneId) parts.push(`zona ${filter.zoneId}`);
  if (filter.advertiser) parts.push(`advertiser ${filter.advertiser}`);
  if (filter.publisher) parts.push(`publisher ${filter.publisher}`);
  if (filter.parentDomain) parts.push(`source ${filter.parentDomain}`);
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
  /** The clock (tests fix it). */
  now?: () => number;
}

export function Tail({ tail, tz, filter, interactive, width, now = Date.now }: TailProps) {
  const { exit } = useApp();
  const [batch, setBatch] = useState<{ n: number; lines: Line[] }>({ n: 0, lines: [{ key: 'header', text: headerLine(width), header: true }] });
  const printed = useRef({ n: 0, count: 0 });
  const stats = useRef(new LiveStats());
  const [status, setStatus] = useState<TailStatus>(tail.status);
  const [, setTick] = useState(0);

  // <Static> prints each line once; this records how many of the batch are on screen.
  useLayoutEffect(() => {
    printed.current = { n: batch.n, count: batch.lines.length };
  });

  useEffect(() => {
    const offEvents = tail.onEvents((records) => {
      stats.current.add(records, now());
      const lines = records.map((r) => ({ key: r.id !== undefined ? `e${r.id}` : recordKey(r), text: formatTailLine(r, tz, width) }));
      setBatch((b) => {
        const all = [...b.lines, ...lines];
        if (all.length <= STATIC_BATCH) return { n: b.n, lines: all };
        // A new <Static> (new key) prints only what the previous one had not printed yet.
        const done = printed.current.n === b.n ? printed.current.count : 0;
        return { n: b.n + 1, lines: all.slice(done) };
      });
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
      if (input === 'q' || key.escape || (key.ctrl && input === 'c')) tail.stop();
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
        <Box>
          <Text inverse color={badge.color}>
            {badge.text}
          </Text>
          <Text>
            {' '}
            {formatNumber(rate, 1)} eventos/s · {formatNumber(stats.current.total, 0)} recibidos · {filterText(filter)}
          </Text>
        </Box>
        {status.detail ? <Text color="yellow">{status.detail}</Text> : null}
        <Text wrap="truncate-end">Top referrers (último minuto): {list(topHosts)}</Text>
        <Text wrap="truncate-end">Top países (último minuto): {list(topCountries)}</Text>
        {interactive ? <Text dimColor>q salir</Text> : null}
      </Box>
    </Box>
  );
}
