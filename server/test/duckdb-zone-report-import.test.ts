// A DuckDB zone-report import stages its rows as data chunks written column by column and merges
// them with a fixed set of statements: every value must read back exactly as given (text at and
// around the 12-byte inline limit, non-ASCII and astral text, nulls in every nullable column,
// dates before 1970 and far ahead, large counts), across several chunks, with days in order or
// not and with repeated keys; the number of statements and native appends must not grow with the
// rows (what made a million-row import take 12 s). A CSV read in chunks of any size answers as if
// read whole.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { DuckDBAppender, DuckDBConnection } from '@duckdb/node-api';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { DomainError } from '../src/domain-errors.js';
import { toZoneReportRecord } from '../src/services/ingest-zone-record.js';
import { ZoneReportIngest } from '../src/services/ingest-zone-report.js';
import { openDuckDbWarehouse } from '../src/warehouse/duckdb/index.js';
import { beginZoneReportImport } from '../src/warehouse/duckdb/zone-report/import.js';
import type { ZoneReportRecord } from '../src/warehouse/index.js';
import { prng } from '../src/sandbox/demo/prng.js';

type Warehouse = Awaited<ReturnType<typeof openDuckDbWarehouse>>;

const TEXTS = ['', 'a', 'ES', '123456789012', '1234567890123', 'ñandú', 'añadidoañadi', 'zona 🦆', 'x'.repeat(200)];
const DATES = ['1969-12-31', '1970-01-01', '2024-02-29', '2026-04-01', '2299-12-31'];

function varied(i: number, date: string): ZoneReportRecord {
  const pick = (salt: number) => TEXTS[(i * 31 + salt * 17) % TEXTS.length];
  const maybe = (salt: number, v: number) => ((i + salt) % 5 === 0 ? null : v);
  return {
    date,
    advertiser: pick(1) || 'AdNova',
    publisher: pick(2) || 'PubA',
    zone_id: `${pick(3)}-${i}`, // unique: no repeated keys
    geo: pick(4),
    source: pick(5),
    domain: pick(6),
    impressions: i * 1_000_003 + 2 ** 40,
    monetized_impressions: maybe(1, i * 7),
    clicks: i % 13,
    revenue: i / 7,
    rate_applied: maybe(2, (i % 100) / 50),
    p_revenue: i / 11,
    margin: i / 7 - i / 11,
    tq: maybe(3, (i % 10) / 10),
  };
}

async function stored(w: Warehouse): Promise<ZoneReportRecord[]> {
  const rows = await w.db.all<Record<string, unknown>>(
    `SELECT date::VARCHAR AS date, advertiser, publisher, zone_id, geo, source, domain, impressions, monetized_impressions,
            clicks, revenue, rate_applied, p_revenue, margin, tq
       FROM zone_report ORDER BY zone_id, date`,
  );
  return rows.map((r) => ({ ...r, impressions: Number(r.impressions) }) as ZoneReportRecord);
}

const byKey = (a: ZoneReportRecord, b: ZoneReportRecord) =>
  a.zone_id < b.zone_id ? -1 : a.zone_id > b.zone_id ? 1 : a.date < b.date ? -1 : a.date > b.date ? 1 : 0;

/** Imports `rows` (seq = line number) through `begin` (the warehouse's own import unless said). */
async function importRows(w: Warehouse, rows: readonly ZoneReportRecord[], begin = () => w.zoneReports.beginImport()) {
  const load = await begin();
  try {
    for (let i = 0; i < rows.length; i++) load.add(rows[i], i + 1);
    return await load.commit();
  } finally {
    await load.close();
  }
}

afterEach(() => vi.restoreAllMocks());

/** DuckDB's refusal past its memory limit, as the engine words it. */
const outOfMemory = () => new Error('Out of Memory Error: failed to pin block of size 256.0 KiB (122.0 MiB/122.0 MiB used)');

/**
 * Makes the connection's `method` fail for memory on statements matching `pattern`, the first
 * `times` of them (then they run as usual); `count` is how many failed.
 */
function failForMemory(method: 'run' | 'runAndReadAll', pattern: RegExp, times = 1): { count: number } {
  const original = DuckDBConnection.prototype[method] as (...a: unknown[]) => Promise<never>;
  const failures = { count: 0 };
  vi.spyOn(DuckDBConnection.prototype, method).mockImplementation(async function (this: DuckDBConnection, sql: string, ...rest: unknown[]) {
    if (failures.count < times && pattern.test(sql)) {
      failures.count++;
      throw outOfMemory();
    }
    return original.call(this, sql, ...rest);
  } as never);
  return failures;
}

describe('DuckDB zone-report import by data chunks', () => {
  test('every value over three chunks, days in order, reads back as given; re-imported, every row is replaced', async () => {
    const w = await openDuckDbWarehouse(':memory:');
    try {
      const rows = Array.from({ length: 5000 }, (_, i) => varied(i, DATES[Math.floor((i * DATES.length) / 5000)]));
      expect(await importRows(w, rows)).toEqual({ inserted: 5000, replaced: 0, repeated: [], repeated_total: 0 });
      expect(await stored(w)).toEqual([...rows].sort(byKey));
      expect(await importRows(w, rows)).toEqual({ inserted: 0, replaced: 5000, repeated: [], repeated_total: 0 });
      expect(await stored(w)).toEqual([...rows].sort(byKey));
      // The rollup was rewritten for the days touched: its sums are the rows'.
      const [sums] = await w.db.all<{ n: bigint; rows: bigint }>('SELECT count(*) AS n, sum(rows) AS rows FROM zone_report_rollup');
      expect(Number(sums.rows)).toBe(5000);
    } finally {
      await w.close();
    }
  });

  test('days out of order and repeated keys: the last line of a key is stored, the repeats listed', async () => {
    const w = await openDuckDbWarehouse(':memory:');
    try {
      const rows = Array.from({ length: 3000 }, (_, i) => varied(i, DATES[i % DATES.length]));
      const again = { ...rows[10], revenue: 99 };
      const result = await importRows(w, [...rows, again]);
      expect(result).toEqual({ inserted: 3000, replaced: 0, repeated: [{ seq: 3001, first_seq: 11 }], repeated_total: 1 });
      const want = rows.map((r, i) => (i === 10 ? again : r)).sort(byKey);
      expect(await stored(w)).toEqual(want);
    } finally {
      await w.close();
    }
  });

  test('a commit the engine could not hold is rolled back whole and run once more: stored once, counted once', async () => {
    const w = await openDuckDbWarehouse(':memory:');
    try {
      const rows = Array.from({ length: 3000 }, (_, i) => varied(i, i < 1500 ? '2026-04-01' : '2026-05-01'));
      await importRows(w, rows);
      // The same keys again at twice the revenue; the first attempt fails after its deletes and inserts.
      const again = rows.map((r) => ({ ...r, revenue: 2 * r.revenue }));
      const failures = failForMemory('run', /^DELETE FROM zone_report_zone_month/);
      // No pause before the step is run again (the retry's wait is for the engine, not this test).
      expect(await importRows(w, again, () => beginZoneReportImport(w.db, 0))).toEqual({
        inserted: 0,
        replaced: 3000,
        repeated: [],
        repeated_total: 0,
      });
      expect(failures.count).toBe(1);
      expect(await stored(w)).toEqual([...again].sort(byKey));
      const sum = (xs: ZoneReportRecord[]) => xs.reduce((n, r) => n + r.revenue, 0);
      const [{ rollup, months }] = await w.db.all<{ rollup: number; months: number }>(
        'SELECT (SELECT sum(rows)::INTEGER FROM zone_report_rollup) AS rollup, (SELECT sum(rows)::INTEGER FROM zone_report_key_month) AS months',
      );
      expect([rollup, months]).toEqual([3000, 3000]);
      expect((await w.zoneReports.totals({ start_date: '2026-04-01', end_date: '2026-05-31' })).revenue).toBeCloseTo(sum(again), 6);
      // Failing again, it is the refusal in words, and nothing of the file is stored.
      vi.restoreAllMocks();
      failForMemory('run', /^DELETE FROM zone_report_zone_month/, Number.POSITIVE_INFINITY);
      const refused = await importRows(
        w,
        rows.map((r) => ({ ...r, revenue: 3 * r.revenue })),
      ).catch((e: unknown) => e);
      expect(refused).toMatchObject({ kind: 'too_large' });
      expect(await stored(w)).toEqual([...again].sort(byKey));
      vi.restoreAllMocks();
    } finally {
      await w.close();
    }
  });

  test('the check for repeated keys, failing once for the engine’s memory, is run once more before the commit', async () => {
    const w = await openDuckDbWarehouse(':memory:');
    try {
      const failures = failForMemory('runAndReadAll', /GROUP BY hash\(/);
      const rows = Array.from({ length: 500 }, (_, i) => varied(i, '2026-04-01'));
      expect(await importRows(w, rows, () => beginZoneReportImport(w.db, 0))).toEqual({
        inserted: 500,
        replaced: 0,
        repeated: [],
        repeated_total: 0,
      });
      expect(failures.count).toBe(1);
      expect(await stored(w)).toEqual([...rows].sort(byKey));
    } finally {
      await w.close();
    }
  });

  test.each([
    ['a chunk appended', 'appendDataChunk', outOfMemory().message],
    // The appender's own wording when its flush at the commit gets no block (an upload beside a large read).
    ['the last rows flushed', 'closeSync', 'Failed to append: could not allocate block of size 256.0 KiB (130.1 MiB/122.0 MiB used)'],
  ] as const)('staging the engine could not hold (%s) is the refusal in words, not a server error', async (_what, method, message) => {
    const w = await openDuckDbWarehouse(':memory:');
    try {
      const original = DuckDBAppender.prototype[method] as (...a: unknown[]) => unknown;
      vi.spyOn(DuckDBAppender.prototype, method).mockImplementation(function (this: DuckDBAppender, ...args: unknown[]) {
        original.apply(this, args);
        throw new Error(message);
      } as never);
      const refused = await importRows(
        w,
        Array.from({ length: 5000 }, (_, i) => varied(i, '2026-04-01')),
      ).catch((e: unknown) => e);
      expect(refused).toMatchObject({ kind: 'too_large' });
      expect((refused as Error).message).toMatch(/no cabe de una vez en la memoria del almacén/);
      vi.restoreAllMocks();
      expect(await stored(w)).toEqual([]);
    } finally {
      await w.close();
    }
  });

  test('a first large file fits into an empty warehouse: the batch is dropped once stored, before the zone periods are summed', async () => {
    // 100,000 rows of 4 days (12,500 zones × 2 advertisers a day, as a daily export), 32 MB: the
    // key months' GROUP BY ran beside the ~50 MB batch and was refused (as a 500,000-row file
    // was at the default 128 MB). The batch's days are all that is read after it is stored.
    const dir = mkdtempSync(path.join(tmpdir(), 'adops-import-first-'));
    const w = await openDuckDbWarehouse(dir, { memoryLimit: '32MB', tempDir: path.join(dir, 'spill') });
    try {
      const lines = Array.from({ length: 100_000 }, (_, i) => {
        const [day, r] = [Math.floor(i / 25_000), i % 25_000];
        return `2026-01-0${day + 1},${r < 12_500 ? 'AdNova' : 'BidSphere'},Publisher ${r % 40},${380_000 + (r % 12_500)},ES,search,site${r % 40}.com,${1000 + (r % 997)},${r % 13},${(r % 89) / 10}`;
      });
      const csv = ['date,advertiser,publisher,zone_id,geo,source,domain,impressions,clicks,revenue', ...lines].join('\n');
      const ingest = new ZoneReportIngest(
        w.zoneReports,
        async () => new Map(),
        () => undefined,
      );
      expect(await ingest.ingestBody(Readable.from([Buffer.from(csv)]), { contentType: 'text/csv' })).toMatchObject({
        inserted: 100_000,
        replaced: 0,
      });
      const [{ rows, months }] = await w.db.all<{ rows: number; months: number }>(
        'SELECT (SELECT sum(rows)::INTEGER FROM zone_report_rollup) AS rows, (SELECT sum(rows)::INTEGER FROM zone_report_key_month) AS months',
      );
      expect([rows, months]).toEqual([100_000, 100_000]);
    } finally {
      await w.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a file larger than the engine's memory limit is refused in words (413), and nothing of it is stored", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'adops-import-memory-'));
    const w = await openDuckDbWarehouse(dir, { memoryLimit: '16MB' });
    try {
      const before = Array.from({ length: 100 }, (_, i) => ({ ...varied(i, '2026-04-01'), zone_id: `antes-${i}` }));
      await importRows(w, before);
      // 50,000 zones of one month: the month's zone sums do not fit 16 MB beside the import's rows.
      const many = Array.from({ length: 50_000 }, (_, i) => ({ ...varied(i, '2026-04-02'), zone_id: `z-${i}` }));
      const refused = await importRows(w, many).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(DomainError);
      expect(refused).toMatchObject({ kind: 'too_large' });
      expect((refused as Error).message).toMatch(
        /no cabe de una vez en la memoria del almacén \(ADOPS_WAREHOUSE_MEMORY_LIMIT\): no se ha guardado nada/,
      );
      expect(await stored(w)).toEqual([...before].sort(byKey));
      const [{ rows }] = await w.db.all<{ rows: number }>('SELECT sum(rows)::INTEGER AS rows FROM zone_report_rollup');
      expect(rows).toBe(100);
      // Uploaded (the service's path, as over HTTP), the refusal keeps its words: a 2 MB file is
      // not called larger than the body limit (the service once renamed every 413 so).
      const csv = ['date,advertiser,publisher,zone_id,impressions,clicks,revenue', ...many.map((r) => `2026-04-03,AdNova,PubA,${r.zone_id},100,1,2`)];
      const ingest = new ZoneReportIngest(
        w.zoneReports,
        async () => new Map(),
        () => undefined,
      );
      const uploaded = await ingest.ingestBody(Readable.from([Buffer.from(csv.join('\n'))]), { contentType: 'text/csv' }).catch((e: unknown) => e);
      expect(uploaded).toMatchObject({ kind: 'too_large' });
      expect((uploaded as Error).message).toMatch(/no cabe de una vez en la memoria del almacén/);
      expect(await stored(w)).toEqual([...before].sort(byKey));
    } finally {
      await w.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an import issues the same statements and a native append per 2,048 rows, however many rows it has', async () => {
    const w = await openDuckDbWarehouse(':memory:');
    try {
      // Observed on the real engine (the spies call through): SQL run, and what reaches the appender.
      const sql: string[] = [];
      const record = (text: unknown) => sql.push(String(text).replace(/\s+/g, ' '));
      for (const method of ['run', 'runAndReadAll', 'prepare'] as const) {
        const original = DuckDBConnection.prototype[method] as (...args: unknown[]) => Promise<unknown>;
        vi.spyOn(DuckDBConnection.prototype, method).mockImplementation(function (this: DuckDBConnection, ...args: unknown[]) {
          record(args[0]);
          return original.apply(this, args);
        } as never);
      }
      const chunks = vi.spyOn(DuckDBAppender.prototype, 'appendDataChunk');
      const values = vi.spyOn(DuckDBAppender.prototype, 'appendVarchar');
      const day = (n: number, date: string) => Array.from({ length: n }, (_, i) => varied(i, date));

      await importRows(w, day(50, '2026-04-01'));
      const small = sql.splice(0);
      expect(chunks).toHaveBeenCalledTimes(1);
      await importRows(w, day(10_000, '2026-04-02'));
      expect(sql.splice(0)).toEqual(small);
      expect(chunks).toHaveBeenCalledTimes(1 + 5); // 10,000 rows: 5 chunks
      expect(values).not.toHaveBeenCalled();
      // Without repeats, days in order: no window over the rows, no sorted copy of them; days
      // never imported: no join of the staged keys with the stored rows.
      expect(small.filter((s) => /QUALIFY|zone_report_batch|DELETE FROM zone_report USING/.test(s))).toEqual([]);
      // Nor a grouping of the six key columns: one 64-bit hash of them answers "no repeated key".
      expect(small.some((s) => /GROUP BY hash\(/.test(s))).toBe(true);
      expect(small.filter((s) => /FROM zone_report_staging GROUP BY date, advertiser, publisher, zone_id/.test(s))).toEqual([]);
      // The same rows again replace the stored ones: the join runs, once.
      expect(await importRows(w, day(50, '2026-04-01'))).toMatchObject({ inserted: 0, replaced: 50 });
      expect(sql.filter((s) => s.includes('DELETE FROM zone_report USING'))).toHaveLength(1);
      // New days' rollup is summed from the staged rows (the only rows of those days), a
      // replaced day's from the stored rows; either way it is the stored rows' sums.
      const rollupFrom = (statements: string[]) =>
        statements.filter((s) => s.startsWith('INSERT INTO zone_report_rollup')).map((s) => / FROM (\w+) /.exec(s)?.[1]);
      expect(rollupFrom(small)).toEqual(['zone_report_staging']);
      expect(rollupFrom(sql)).toEqual(['zone_report']);
      const zonesFrom = (statements: string[]) =>
        statements.filter((s) => s.startsWith('INSERT INTO zone_report_zones')).map((s) => / FROM (\w+) /.exec(s)?.[1]);
      expect(zonesFrom(small)).toEqual(['zone_report_staging']);
      expect(zonesFrom(sql)).toEqual(['zone_report']);
      // Every statement reading the stored rows, new days or replaced, reads the import's own days:
      // the key months and zone weeks change by what those days changed, never summed again from
      // every row of their months and weeks (a day into a month of 7 M rows read the month).
      const readsRows = [...small, ...sql].filter((s) => /FROM zone_report\b/.test(s));
      expect(readsRows.length).toBeGreaterThan(5);
      for (const s of readsRows) expect(s).toMatch(/date BETWEEN \$first::DATE AND \$last::DATE/);
      expect((await w.db.all('SELECT zone_id FROM zone_report_zones')).length).toBe(
        (await w.db.all('SELECT DISTINCT zone_id FROM zone_report')).length,
      );
      const [rollup] = await w.db.all<{ rows: bigint; revenue: number }>('SELECT sum(rows) AS rows, sum(revenue) AS revenue FROM zone_report_rollup');
      const [facts] = await w.db.all<{ rows: bigint; revenue: number }>('SELECT count(*) AS rows, sum(revenue) AS revenue FROM zone_report');
      expect(Number(rollup.rows)).toBe(10_050);
      expect(rollup.revenue).toBeCloseTo(facts.revenue, 6);
    } finally {
      await w.close();
    }
  });
});

describe('a CSV read in chunks of any size', () => {
  const CSV = [
    '\uFEFFdate,advertiser,publisher,zone_id,geo,source,domain,impressions,clicks,revenue', // 1 BOM
    '2026-04-01,AdNova,"Pub, ""Q""', // 2 a quoted field over two lines…
    'Name",Q-1,ES,search,a.com,100,2,1.5\r', // 3 …CRLF
    '', // 4 blank
    '2026-04-01,AdNova,PubA,Q-2,ES,search,a.com,100,2,1.5\r2026-04-01,AdNova,PubA,Q-3,ES,search,a.com,1,1,1', // 5 lone CR
    '2026-04-01,AdNova,PubA,"Q-4",ES,search,a.com,100,2,"2.5"', // 6 quoted, one line
    '2026-04-01,AdNova,PubA,Q-5,ES,search,a.com,100,2', // 7 short
    '  ', // 8 spaces only: one field
    '2026-04-01,Añadido 🦆,PubA,Q-6,ES,search,a.com,100,2,3', // 9 non-ASCII
    '2026-04-01,AdNova,PubA,"Q-7', // 10 unclosed quote to the end
  ].join('\n');

  const ingestIn = async (pieces: Buffer[]) => {
    const w = await openDuckDbWarehouse(':memory:');
    try {
      const ingest = new ZoneReportIngest(
        w.zoneReports,
        async () => new Map(),
        () => undefined,
      );
      const answer = await ingest.ingestBody(Readable.from(pieces), { contentType: 'text/csv' });
      const rows = await w.db.all<{ zone_id: string; publisher: string; advertiser: string; revenue: number }>(
        'SELECT zone_id, publisher, advertiser, revenue FROM zone_report ORDER BY zone_id',
      );
      return { answer, rows };
    } finally {
      await w.close();
    }
  };

  test('whole, the answer names each refused line and stores the rest', async () => {
    expect(await ingestIn([Buffer.from(CSV)])).toEqual({
      answer: {
        inserted: 3,
        replaced: 0,
        rejected: [
          { line: 5, detail: 'varias filas en una línea (usa finales de línea LF o CRLF)' },
          { line: 7, detail: 'tiene 9 campos y la cabecera 10' },
          { line: 8, detail: 'tiene 1 campos y la cabecera 10' },
          { line: 10, detail: 'CSV mal formado: comillas sin cerrar' },
        ],
        rejected_total: 4,
        duplicates: [],
        duplicates_total: 0,
        days: [],
      },
      rows: [
        { zone_id: 'Q-1', publisher: 'Pub, "Q"\nName', advertiser: 'AdNova', revenue: 1.5 },
        { zone_id: 'Q-4', publisher: 'PubA', advertiser: 'AdNova', revenue: 2.5 },
        { zone_id: 'Q-6', publisher: 'PubA', advertiser: 'Añadido 🦆', revenue: 3 },
      ],
    });
  });

  test.each([1, 2, 3, 7, 64])('in pieces of %i bytes, the same answer and rows', async (size) => {
    const bytes = Buffer.from(CSV);
    const pieces: Buffer[] = [];
    // Byte pieces split characters too: the body is decoded across them.
    for (let i = 0; i < bytes.length; i += size) pieces.push(bytes.subarray(i, i + size));
    const whole = await ingestIn([bytes]);
    const split = await ingestIn(pieces);
    expect(split.answer).toEqual(whole.answer);
    expect(split.rows).toEqual(whole.rows);
  });
});

describe('a line\u2019s checks, line after line', () => {
  const line = (over: Record<string, unknown>) => ({
    date: '2026-04-01',
    advertiser: 'AdNova',
    publisher: 'PubA',
    zone_id: 'Z-1',
    impressions: '10',
    clicks: '1',
    revenue: '1.5',
    ...over,
  });
  const check = (over: Record<string, unknown>) => {
    const r = toZoneReportRecord(line(over), new Map());
    return typeof r === 'object' && 'impressions' in r ? { impressions: r.impressions, advertiser: r.advertiser } : r;
  };

  test.each([
    ['007', { impressions: 7, advertiser: 'AdNova' }],
    [' 12 ', { impressions: 12, advertiser: 'AdNova' }],
    ['1e3', { impressions: 1000, advertiser: 'AdNova' }],
    ['999999999999', { impressions: 999999999999, advertiser: 'AdNova' }],
    ['1000000000000', { impressions: 1e12, advertiser: 'AdNova' }],
    ['1000000000001', 'impressions: número fuera de rango'],
    ['+5', 'impressions: debe ser un número (con punto decimal)'],
    ['0x10', 'impressions: debe ser un número (con punto decimal)'],
    ['1.5', 'impressions: debe ser un entero ≥ 0'],
    ['-3', 'impressions: no puede ser negativo'],
    ['', 'impressions: obligatorio'],
  ])('impressions %j: the same answer every time', (impressions, expected) => {
    expect(check({ impressions })).toEqual(expected);
    expect(check({ impressions })).toEqual(expected);
  });

  test('an amount read digit by digit is the number Number() reads, to the last bit; a malformed one is refused as before', () => {
    const random = prng(29);
    const digits = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 10)).join('');
    const texts = ['0.1', '2.675', '0.30000000000001', '123456789012.123', '999999999999.999', '1234567890123.5', '0.000000000000001', '7.0'];
    for (let i = 0; i < 2000; i++) texts.push(`${digits(1 + Math.floor(random() * 12))}.${digits(1 + Math.floor(random() * 15))}`);
    for (const revenue of texts) {
      const r = toZoneReportRecord(line({ revenue }), new Map());
      const expected = Number(revenue) > 1e12 ? 'revenue: número fuera de rango' : Number(revenue);
      expect(typeof r === 'object' && 'revenue' in r ? r.revenue : r).toBe(expected);
    }
    for (const revenue of ['5.', '.5', '1.2.3', '1,5', '1..2'])
      expect(toZoneReportRecord(line({ revenue }), new Map())).toBe('revenue: debe ser un número (con punto decimal)');
  });

  test('a text refused once is refused again; a kept one is kept trimmed every time', () => {
    for (let i = 0; i < 2; i++) {
      expect(check({ advertiser: 'Ad\u0007Nova' })).toBe('advertiser: contiene caracteres de control');
      expect(check({ advertiser: ' AdNova ' })).toEqual({ impressions: 10, advertiser: 'AdNova' });
      expect(check({ advertiser: '   ' })).toBe('advertiser: obligatorio');
      expect(check({ advertiser: 'x'.repeat(201) })).toBe('advertiser: más de 200 caracteres');
    }
  });
});
