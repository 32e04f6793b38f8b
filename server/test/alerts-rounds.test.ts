// One evaluation round shares its warehouse queries between rules (what lets 1,000 rules run every
// minute): rules of a kind and window cost one query for all their subjects and thresholds, and
// each rule still finds exactly what it finds alone — its own target, threshold and limit. On a
// real DuckDB warehouse (in memory); the wrapper only counts the calls that reach it.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { addDays } from '@adops/core';
import { openDuckDbWarehouse } from '../src/warehouse/duckdb/index.js';
import type { ReferrerEvent, Warehouse, ZoneReportRecord } from '../src/warehouse/index.js';
import { findings, roundQueries, SHARED_BURST_LIMIT, type RuleContext } from '../src/services/alert-rules.js';
import { event, importRows } from './warehouse-contract.js';
import { zoneReportRow } from './helpers.js';

// Noon two days ago (UTC): a rule's last 6 hours stay within that day.
const T = Date.parse(`${new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10)}T12:00:00Z`);
const TODAY = new Date(T).toISOString().slice(0, 10);
const MIN = 60_000;
let w: Warehouse;
const calls = { groups: 0, bursts: 0 };
let nextId = 1;

const zoneRow = (date: string, zone_id: string, over: Partial<ZoneReportRecord> = {}) =>
  zoneReportRow(date, zone_id, { publisher: zone_id.startsWith('A') ? 'PubA' : 'PubB', ...over });
const visits = (n: number, at: number, e: Partial<ReferrerEvent>): ReferrerEvent[] =>
  Array.from({ length: n }, (_, i) => event(nextId++, at + i * 1000, { zone_id: 'A1', ...e }));

beforeAll(async () => {
  w = await openDuckDbWarehouse(':memory:');
  await importRows(w, [
    zoneRow(TODAY, 'A1', { tq: 0.2 }),
    zoneRow(TODAY, 'A2', { tq: 0.35 }),
    zoneRow(TODAY, 'B1', { tq: 0.1, impressions: 200, monetized_impressions: 200 }),
    zoneRow(TODAY, 'B2', { tq: 0.95 }),
    zoneRow(addDays(TODAY, -1), 'A1', { revenue: 30 }),
    zoneRow(addDays(TODAY, -8), 'A1', { revenue: 100 }),
    zoneRow(addDays(TODAY, -1), 'B1', { revenue: 60 }),
    zoneRow(addDays(TODAY, -8), 'B1', { revenue: 100 }),
  ]);
  // Hosts in the last 10 minutes: big.example 30 people, mid.example 12, small.example 4 (+ 20 bots);
  // new.example never seen before; old.example seen a week ago too. One IP sends 15.
  await w.referrers.append([
    ...visits(1, T - 7 * 86_400_000, { parent_domain: 'old.example' }),
    ...visits(30, T - 9 * MIN, { parent_domain: 'big.example' }),
    ...visits(12, T - 9 * MIN, { parent_domain: 'mid.example' }),
    ...visits(4, T - 9 * MIN, { parent_domain: 'small.example' }),
    ...visits(20, T - 9 * MIN, { parent_domain: 'small.example', is_bot: true, reason: 'user_agent' }),
    ...visits(8, T - 4 * MIN, { parent_domain: 'new.example' }),
    ...visits(8, T - 4 * MIN, { parent_domain: 'old.example' }),
    ...visits(15, T - 3 * MIN, { parent_domain: 'big.example', ip: '203.0.113.9' }),
  ]);
  // Counted pass-through: the real warehouse answers.
  const zoneReports = w.zoneReports;
  const alerts = w.alerts;
  w = {
    ...w,
    zoneReports: {
      ...zoneReports,
      groups: (q) => {
        calls.groups++;
        return zoneReports.groups(q);
      },
    },
    alerts: {
      bursts: (q) => {
        calls.bursts++;
        return alerts.bursts(q);
      },
    },
  };
});
afterAll(() => w?.close());

const RULES = [
  { kind: 'tq_low', params: { scope: 'zone', target: null, threshold: 0.5, hours: 6, min_impressions: 1000 } },
  { kind: 'tq_low', params: { scope: 'zone', target: 'A2', threshold: 0.5, hours: 6, min_impressions: 1000 } },
  { kind: 'tq_low', params: { scope: 'zone', target: 'A1', threshold: 0.1, hours: 6, min_impressions: 1000 } },
  { kind: 'tq_low', params: { scope: 'zone', target: 'B1', threshold: 0.5, hours: 6, min_impressions: 100 } },
  { kind: 'tq_low', params: { scope: 'publisher', target: null, threshold: 0.5, hours: 6, min_impressions: 1 } },
  { kind: 'revenue_drop', params: { scope: 'zone', target: null, drop_percent: 30, hours: 24, min_revenue: 10 } },
  { kind: 'revenue_drop', params: { scope: 'zone', target: 'B1', drop_percent: 50, hours: 24, min_revenue: 10 } },
  { kind: 'referrer_burst', params: { target: null, new_only: false, visits: 10, minutes: 10 } },
  { kind: 'referrer_burst', params: { target: null, new_only: false, visits: 3, minutes: 10 } },
  { kind: 'referrer_burst', params: { target: 'mid.example', new_only: false, visits: 5, minutes: 10 } },
  { kind: 'referrer_burst', params: { target: 'big.example', new_only: false, visits: 100, minutes: 10 } },
  { kind: 'referrer_burst', params: { target: null, new_only: false, visits: 10, minutes: 5 } },
  { kind: 'referrer_burst', params: { target: null, new_only: true, visits: 5, minutes: 5 } },
  { kind: 'ip_burst', params: { visits: 10, minutes: 5 } },
  { kind: 'ip_burst', params: { visits: 20, minutes: 5 } },
];
const subjectsOf = async (ctx: RuleContext) => {
  const out: string[][] = [];
  for (const r of RULES) out.push((await findings(r.kind, r.params, ctx)).map((f) => `${f.subject} ${f.value}`));
  return out;
};

test('rules of a kind and window share one query, and each finds what it finds alone', async () => {
  const base = { warehouse: w, profit: { rows: async () => ({ rows: [] }) } as never, tz: 'UTC', now: T };
  calls.groups = calls.bursts = 0;
  const alone = await subjectsOf(base);
  expect(calls).toEqual({ groups: 7 + 2, bursts: 8 });
  calls.groups = calls.bursts = 0;
  const shared = await subjectsOf({ ...base, round: roundQueries(RULES) });
  expect(shared).toEqual(alone);
  // TQ by zone (6 h), by publisher (6 h), revenue by zone now and a week before; bursts: hosts over 10 and 5 minutes, new hosts, IPs.
  expect(calls).toEqual({ groups: 4, bursts: 4 });
  expect(shared).toEqual([
    ['A1 0.2', 'A2 0.35'],
    ['A2 0.35'],
    [],
    ['B1 0.1'],
    ['PubA 0.275'],
    ['A1 -70', 'B1 -40'],
    [],
    ['big.example 45', 'mid.example 12'],
    ['big.example 45', 'mid.example 12', 'new.example 8', 'old.example 8', 'small.example 4'],
    ['mid.example 12'],
    [],
    ['big.example 15'],
    ['new.example 8'],
    ['203.0.113.9 15'],
    [],
  ]);
});

test('a rule on one host still finds it when the shared answer is cut at its limit', async () => {
  // Over SHARED_BURST_LIMIT hosts with more visits than small.example's: the shared answer stops before it.
  const crowd: ReferrerEvent[] = [];
  for (let h = 0; h <= SHARED_BURST_LIMIT; h++) crowd.push(...visits(5, T - 8 * MIN, { parent_domain: `h${h}.crowd.example` }));
  await w.referrers.append(crowd);
  const rules = [
    { kind: 'referrer_burst', params: { target: null, new_only: false, visits: 3, minutes: 15 } },
    { kind: 'referrer_burst', params: { target: 'small.example', new_only: false, visits: 3, minutes: 15 } },
  ];
  const ctx = { warehouse: w, profit: { rows: async () => ({ rows: [] }) } as never, tz: 'UTC', now: T, round: roundQueries(rules) };
  expect((await findings(rules[0].kind, rules[0].params, ctx)).length).toBe(200);
  expect((await findings(rules[1].kind, rules[1].params, ctx)).map((f) => [f.subject, f.value])).toEqual([['small.example', 4]]);
}, 60_000);
