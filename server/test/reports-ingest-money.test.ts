// Zone-report imports with figures that contradict each other (margin ≠ revenue − p_revenue, a
// negative p_revenue implied by the margin, a share past 2, more clicks than impressions, TQ off
// its 0–1 scale): the whole file is refused with 400 naming the line and the column in words,
// and nothing of it is stored — the month's figures stay as they were.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ZoneDetails, type Api } from '@adops/core';
import { startTestServer, type TestServer } from './helpers.js';
import { getJson, postZoneReport } from './reports-fixture.js';

let s: TestServer;
let admin: Api & { token: string };

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.admin();
  const seed = ['date,advertiser,publisher,zone_id,impressions,clicks,revenue,p_revenue,margin', '2026-05-01,AdNova,PubA,M-0,1000,10,50,30,20'];
  expect((await (await postZoneReport(s, admin.token, seed.join('\n'))).json()).inserted).toBe(1);
});
afterAll(() => s?.close());

const MAY = { start_date: '2026-05-01', end_date: '2026-05-31' };
const stored = async () => ZoneDetails.parse((await getJson(s, admin.token, '/api/ad-report/zone-details', MAY)).body);

const HEADER = 'date,advertiser,publisher,zone_id,impressions,monetized_impressions,clicks,revenue,p_revenue,margin,tq';
const GOOD = '2026-05-02,AdNova,PubA,M-1,1000,900,10,10,6,4,0.8';
const NOTHING = 'No se ha importado nada: cifras que se contradicen suelen ser columnas cambiadas de sitio; corrige el archivo e impórtalo de nuevo.';

describe('a line whose figures disagree refuses the whole import, naming its line and column', () => {
  test.each([
    [
      'a margin above revenue (p_revenue would be −990)',
      '2026-05-02,AdNova,PubA,M-2,1000,900,10,10,,1000,0.8',
      'margin (1000) es mayor que revenue (10): el revenue del publisher (p_revenue = revenue − margin) sería -990, y no puede ser negativo',
    ],
    [
      'a margin that is not revenue − p_revenue',
      '2026-05-02,AdNova,PubA,M-2,1000,900,10,10,5,999.999,0.8',
      'margin (999.999) no es revenue − p_revenue (10 − 5 = 5): el margen es el revenue menos el revenue del publisher, con un céntimo de tolerancia',
    ],
    [
      'a margin two cents off',
      '2026-05-02,AdNova,PubA,M-2,1000,900,10,10,5,5.02,0.8',
      'margin (5.02) no es revenue − p_revenue (10 − 5 = 5): el margen es el revenue menos el revenue del publisher, con un céntimo de tolerancia',
    ],
    [
      'a publisher revenue 3 times the revenue (rate_applied 3)',
      '2026-05-02,AdNova,PubA,M-2,1000,900,10,10,30,,0.8',
      'p_revenue (30) es más de 2 veces revenue (10): el revenue share aplicado (rate_applied = p_revenue ÷ revenue) debe estar entre 0 y 2',
    ],
    [
      'more clicks than impressions',
      '2026-05-02,AdNova,PubA,M-2,1000,900,2000,10,6,4,0.8',
      'clicks (2000) es mayor que impressions (1000): no puede haber más clics que impresiones',
    ],
    [
      'more monetized impressions than impressions',
      '2026-05-02,AdNova,PubA,M-2,1000,1200,10,10,6,4,0.8',
      'monetized_impressions (1200) es mayor que impressions (1000): no puede haber más impresiones monetizadas que impresiones',
    ],
    [
      'a negative TQ',
      '2026-05-02,AdNova,PubA,M-2,1000,900,10,10,6,4,-50',
      'tq (-50) está fuera de su escala: el TQ (calidad del tráfico) va de 0 a 1',
    ],
    [
      'a TQ of a million',
      '2026-05-02,AdNova,PubA,M-2,1000,900,10,10,6,4,1000000',
      'tq (1000000) está fuera de su escala: el TQ (calidad del tráfico) va de 0 a 1',
    ],
  ])('%s: 400 with line 3, nothing stored', async (_, bad, detail) => {
    const before = await stored();
    const entities = await s.storedEntities();
    const res = await postZoneReport(s, admin.token, [HEADER, GOOD, bad, GOOD.replace('M-1', 'M-3')].join('\n'));
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.detail).toBe(`Línea 3: ${detail}. ${NOTHING}`);
    expect(body).toMatchObject({ rejected: [{ line: 3, detail }], rejected_total: 1 });
    // Neither the good lines before and after it nor the bad one: the month is as it was.
    expect(await stored()).toEqual(before);
    expect(await s.storedEntities()).toBe(entities);
  });

  test('every disagreeing line is listed, the first named; a JSON array counts elements as lines', async () => {
    const before = await stored();
    const rows = [
      { date: '2026-05-03', advertiser: 'AdNova', publisher: 'PubA', zone_id: 'J-1', impressions: 10, clicks: 1, revenue: 1 },
      { date: '2026-05-03', advertiser: 'AdNova', publisher: 'PubA', zone_id: 'J-2', impressions: 10, clicks: 20, revenue: 1 },
      { date: '2026-05-03', advertiser: 'AdNova', publisher: 'PubA', zone_id: 'J-3', impressions: 10, clicks: 1 }, // no revenue: an ordinary refusal
      { date: '2026-05-03', advertiser: 'AdNova', publisher: 'PubA', zone_id: 'J-4', impressions: 10, clicks: 1, revenue: 1, margin: 3 },
    ];
    const res = await postZoneReport(s, admin.token, JSON.stringify(rows), 'application/json');
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.detail).toBe(
      `Línea 2: clicks (20) es mayor que impressions (10): no puede haber más clics que impresiones (y 1 línea más con cifras que no cuadran: ver rejected). ${NOTHING}`,
    );
    expect(body.rejected).toEqual([
      { line: 2, detail: 'clicks (20) es mayor que impressions (10): no puede haber más clics que impresiones' },
      { line: 3, detail: 'revenue: obligatorio' },
      {
        line: 4,
        detail: 'margin (3) es mayor que revenue (1): el revenue del publisher (p_revenue = revenue − margin) sería -2, y no puede ser negativo',
      },
    ]);
    expect(body.rejected_total).toBe(3);
    expect(await stored()).toEqual(before);
  });

  test('figures that agree within a cent are stored, as are lines without margin or p_revenue', async () => {
    const lines = [
      HEADER,
      '2026-05-04,AdNova,PubA,OK-1,1000,900,10,10,5,5.01,0.8', // a cent of rounding in the source
      '2026-05-04,AdNova,PubA,OK-2,1000,1000,1000,10,,10,1', // every impression clicked, all margin, the top TQ
      '2026-05-04,AdNova,PubA,OK-3,0,0,0,0,0,0,0', // a day without traffic
      '2026-05-04,AdNova,PubA,OK-4,1000,900,10,10,20,,', // a guaranteed payout: twice the revenue
    ];
    const res = await postZoneReport(s, admin.token, lines.join('\n'));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ inserted: 4, rejected: [] });
    const day = ZoneDetails.parse(
      (await getJson(s, admin.token, '/api/ad-report/zone-details', { start_date: '2026-05-04', end_date: '2026-05-04' })).body,
    );
    expect(Object.fromEntries(day.rows.map((r) => [r.zone_id, [r.p_revenue, r.margin]]))).toEqual({
      'OK-1': [5, 5.01],
      'OK-2': [0, 10],
      'OK-3': [0, 0],
      'OK-4': [20, -10],
    });
  });
});

describe('a rate_applied beside the money it should explain', () => {
  const RATE_HEADER = 'date,advertiser,publisher,zone_id,impressions,clicks,revenue,p_revenue,margin,rate_applied';

  test.each([
    [
      'a rate of 1.5 on a line paying half',
      '2026-05-06,AdNova,PubA,R-2,1000,10,10,5,5,1.5',
      'rate_applied (1.5) no es p_revenue ÷ revenue (5 ÷ 10 = 0.5): el revenue share aplicado es el revenue del publisher dividido por el revenue',
    ],
    [
      'a rate of 0.1 beside a margin that pays 0.6',
      '2026-05-06,AdNova,PubA,R-2,1000,10,10,,4,0.1',
      'rate_applied (0.1) no es (revenue − margin) ÷ revenue (6 ÷ 10 = 0.6): el revenue share aplicado es el revenue del publisher dividido por el revenue',
    ],
  ])('%s: 400 with line 3, nothing stored', async (_, bad, detail) => {
    const before = await stored();
    const good = '2026-05-06,AdNova,PubA,R-1,1000,10,10,6,4,0.6';
    const res = await postZoneReport(s, admin.token, [RATE_HEADER, good, bad].join('\n'));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ detail: `Línea 3: ${detail}. ${NOTHING}`, rejected: [{ line: 3, detail }] });
    expect(await stored()).toEqual(before);
  });

  test('a rate written to two decimals, the exact one, or any rate on a line without revenue is stored as given', async () => {
    const lines = [
      RATE_HEADER,
      '2026-05-07,AdNova,PubA,RT-1,1000,10,10000,6942,3058,0.69', // 0.6942 written to two decimals
      '2026-05-07,AdNova,PubA,RT-2,1000,10,10000,6942,,0.6942',
      '2026-05-07,AdNova,PubA,RT-3,0,0,0,0,0,0.7', // no traffic: the share pays nothing
    ];
    const res = await postZoneReport(s, admin.token, lines.join('\n'));
    expect(await res.json()).toMatchObject({ inserted: 3, rejected: [] });
    const day = ZoneDetails.parse(
      (await getJson(s, admin.token, '/api/ad-report/zone-details', { start_date: '2026-05-07', end_date: '2026-05-07' })).body,
    );
    expect(Object.fromEntries(day.rows.map((r) => [r.zone_id, [r.p_revenue, r.rate_applied]]))).toEqual({
      'RT-1': [6942, 0.69],
      'RT-2': [6942, 0.6942],
      'RT-3': [0, 0.7],
    });
  });
});
