// Plain CSV lines (no quote, no CR but a CRLF's) are read field by field where they lie in the
// text, with no array of fields per line: what a million-line import spent most of its parsing
// on (allocations and their collection). Their answer and stored rows must be those of any line.
import { Readable } from 'node:stream';
import { afterEach, expect, test, vi } from 'vitest';
import { ZoneReportIngest } from '../src/services/ingest-zone-report.js';
import { openDuckDbWarehouse } from '../src/warehouse/duckdb/index.js';

afterEach(() => vi.restoreAllMocks());

/** A stored row of AdNova and PubA with no geo, 100 impressions and 2 clicks. */
const row = (zone_id: string, date: string, revenue: number, p_revenue: number, tq: number | null) => ({
  date,
  advertiser: 'AdNova',
  publisher: 'PubA',
  zone_id,
  geo: '',
  impressions: 100,
  clicks: 2,
  revenue,
  p_revenue,
  tq,
});

async function ingestCsv(csv: string) {
  const w = await openDuckDbWarehouse(':memory:');
  try {
    const ingest = new ZoneReportIngest(
      w.zoneReports,
      async () => new Map([['puba', 0.5]]),
      () => undefined,
    );
    const answer = await ingest.ingestBody(Readable.from([Buffer.from(csv)]), { contentType: 'text/csv' });
    const rows = await w.db.all<Record<string, unknown>>(
      `SELECT date::VARCHAR AS date, advertiser, publisher, zone_id, geo, impressions::INTEGER AS impressions, clicks::INTEGER AS clicks,
              revenue, p_revenue, tq FROM zone_report ORDER BY zone_id`,
    );
    return { answer, rows };
  } finally {
    await w.close();
  }
}

test('a large plain CSV is not split line by line into arrays of fields', async () => {
  const lines = ['date,advertiser,publisher,zone_id,impressions,clicks,revenue'];
  for (let i = 0; i < 5000; i++) lines.push(`2026-04-0${1 + (i % 3)},AdNova,PubA,Z-${i},${100 + i},${i % 7},${(i / 100).toFixed(2)}`);
  const split = vi.spyOn(String.prototype, 'split');
  const { answer } = await ingestCsv(`${lines.join('\n')}\n`);
  expect(answer.inserted).toBe(5000);
  expect(split.mock.calls.length).toBeLessThan(50);
});

test('CRLF lines, padded and repeated values, odd numbers, unknown columns and wrong field counts answer as any line does', async () => {
  const csv = [
    'date,advertiser,publisher,zone_id,impressions,clicks,revenue,constructor,,tq',
    '2026-04-01,AdNova,PubA,Z-1,100,2,1.5,x,y,0.5', // 2
    '2026-04-01, AdNova ,PubA,Z-2,1e2,2,2.50,x,y,', // 3 padded advertiser, exponent, blank tq
    '2026-04-01,AdNova,PubA,Z-3,100,2,1.5,x,y,0.5,extra', // 4 one field too many
    '2026-04-01,AdNova,PubA,Z-4,100,2,1.5,x,y', // 5 one too few
    '2026-04-01,AdNova,PubA,Z-5,-3,2,1.5,x,y,0.5', // 6 negative count
    ' 2026-04-02,AdNova,PubA,Z-6,100,2,1.5,x,y,0.5', // 7 padded day
    '2026-04-02,AdNova,PubA\u0001,Z-7,100,2,1.5,x,y,0.5', // 8 control character
    '2026-04-31,AdNova,PubA,Z-8,100,2,1.5,x,y,0.5', // 9 no such day
    '2026-04-02,AdNova,,Z-9,100,2,1.5,x,y,0.5', // 10 no publisher
    '2026-04-02,AdNova,PubA,Z-10,0100,02,000.25,x,y,0.5', // 11 leading zeros
    '',
  ].join('\r\n');
  expect(await ingestCsv(csv)).toEqual({
    answer: {
      inserted: 4,
      replaced: 0,
      rejected: [
        { line: 4, detail: 'tiene 11 campos y la cabecera 10' },
        { line: 5, detail: 'tiene 9 campos y la cabecera 10' },
        { line: 6, detail: 'impressions: no puede ser negativo' },
        { line: 8, detail: 'publisher: contiene caracteres de control' },
        { line: 9, detail: 'date: fecha no válida (YYYY-MM-DD)' },
        { line: 10, detail: 'publisher: obligatorio' },
      ],
      rejected_total: 6,
      duplicates: [],
      duplicates_total: 0,
      days: [],
    },
    rows: [
      row('Z-1', '2026-04-01', 1.5, 0.75, 0.5),
      row('Z-10', '2026-04-02', 0.25, 0.125, 0.5),
      row('Z-2', '2026-04-01', 2.5, 1.25, null),
      row('Z-6', '2026-04-02', 1.5, 0.75, 0.5),
    ],
  });
});
