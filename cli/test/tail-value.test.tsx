// `adops tail --value`: 'Valor' (the zone's revenue per visit that day, the server's figure) and
// 'TQ' beside each live line. Yesterday zone zv1 earned 6.00 over 8 human visits (RPV 0.75, TQ
// 0.50); today has no report yet, so today's visits are worth the trailing RPV: 0.75.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { render } from 'ink-testing-library';
import { formatProfitMetric, type LiveRecord } from '@adops/core';
import { ADMIN, startTestServer, type TestServer } from '../../server/test/helpers.js';
import { LiveTail } from '../src/live-tail.js';
import { Tail, formatTailLine, headerLine } from '../src/ui/Tail.js';
import { newConfigDir, runCli, waitFor } from './helpers.js';

let server: TestServer;
let token: string;
let dir: string;
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

async function ingest(events: object[]): Promise<void> {
  const res = await server.fetch('/api/ingest/referrers', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' },
    body: `${events.map((e) => JSON.stringify(e)).join('\n')}\n`,
  });
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  server = await startTestServer();
  token = (await server.admin()).token;
  const values = {
    date: yesterday,
    zone_id: 'zv1',
    advertiser: 'AdNova',
    publisher: 'Pub V',
    geo: 'ES',
    source: 'web',
    domain: 'example.com',
    impressions: 1000,
    clicks: 0,
    revenue: 6,
    p_revenue: 4.2,
    tq: 0.5,
  };
  expect((await server.app.services.ingest.ingest([{ line: 1, values }])).rejected_total).toBe(0);
  await ingest(Array.from({ length: 8 }, (_, i) => ({ zone_id: 'zv1', seen_at: `${yesterday}T12:00:0${i}Z`, referrer: 'https://a.example.com/' })));
  dir = await newConfigDir();
  expect((await runCli(['login', '--email', ADMIN.email], dir, server.url, { stdin: `${ADMIN.password}\n` })).code).toBe(0);
});
afterAll(() => server?.close());

describe('adops tail --value', () => {
  it('a new visit shows its zone’s estimated value and TQ as the server computed them; the footer says “con valor”', async () => {
    const api = await server.admin();
    const tail = new LiveTail({ api, server: server.url, token: api.token, filter: { zoneId: 'zv' }, lines: 0 });
    const ui = render(<Tail tail={tail} tz="UTC" filter={{ zoneId: 'zv' }} interactive width={120} value />);
    const frame = () => ui.lastFrame() ?? '';
    await tail.start();
    await waitFor(() => frame().includes(' SSE '), 'the SSE badge');
    await ingest([{ zone_id: 'zv1', referrer: 'https://live.example.com/x', keyword: 'kw-valor' }]);
    await waitFor(() => frame().includes('kw-valor'), 'the line');
    const lines = frame().split('\n');
    expect(lines[0]).toMatch(/^Date\s+Zone ID\s+Valor\s+TQ\s+Source\s+Referrer/);
    const line = lines.find((l) => l.includes('kw-valor'))!;
    expect(line).toMatch(new RegExp(`zv1\\s+\\${formatProfitMetric('rpv', 0.75)}\\s+${formatProfitMetric('tq', 0.5)}\\s+live\\.exa`));
    expect(frame()).toContain('con valor');
    ui.stdin.write('q');
    await tail.done;
    ui.unmount();
  });

  it('the records --json prints carry value and tq: the backlog from the log, new ones from the stream (null: nothing to go by)', async () => {
    const api = await server.admin();
    const tail = new LiveTail({ api, server: server.url, token: api.token, filter: { zoneId: 'zv' }, lines: 5 });
    const received: LiveRecord[] = [];
    tail.onEvents((records) => received.push(...records));
    await tail.start();
    await waitFor(() => tail.status.mode === 'sse', 'the stream');
    await ingest([{ zone_id: 'zv-new', referrer: 'https://n.example.com/' }]);
    await waitFor(() => received.some((r) => r.zone_id === 'zv-new'), 'the new event');
    tail.stop();
    const backlog = received.find((r) => r.zone_id === 'zv1' && r.keyword === 'kw-valor');
    expect(backlog).toMatchObject({ value: 0.75, tq: 0.5 });
    expect(received.find((r) => r.zone_id === 'zv-new')).toMatchObject({ value: null, tq: null });
  });

  it('at 80 and 120 columns Valor and TQ stay (the IP, keyword and source give way first) and every line fits', () => {
    const record: LiveRecord = {
      zone_id: 'zv1',
      parent_domain: 'news.example.com',
      referrer: 'https://news.example.com/a/very/long/path?q=1',
      keyword: 'ofertas de viaje',
      ip: '203.0.113.77',
      country: 'ES',
      seen_at: '2026-11-24T09:05:07.000Z',
      value: 0.012345,
      tq: 0.61,
    };
    for (const width of [80, 120]) {
      const header = headerLine(width, false, true);
      expect(header).toMatch(/^Date\s+Zone ID\s+Valor\s+TQ\s+/);
      expect(header).toMatch(/Country$/);
      const line = formatTailLine(record, 'UTC', width, false, true);
      expect(line.length, `${width}`).toBeLessThan(width);
      expect(line).toContain(`${formatProfitMetric('rpv', 0.012345)}  ${formatProfitMetric('tq', 0.61)}`);
      expect(formatTailLine({ ...record, value: null, tq: null }, 'UTC', width, false, true)).toMatch(/zv1\s+-\s+-\s+/);
      // With --bots too, the Bot column still fits.
      expect(formatTailLine({ ...record, reason: 'user_agent' }, 'UTC', width, true, true).length).toBeLessThan(width);
    }
    expect(headerLine(80)).not.toContain('Valor');
  });
});
