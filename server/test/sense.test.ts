// Sense before saving: alert rule parameters within their scales, an empty number refused (never
// saved as 0), a rule's target and a token's publisher among those the reports know.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Api } from '@adops/core';
import { failure, startTestServer, type TestServer } from './helpers.js';
import { FIXTURE_CSV, postZoneReport } from './reports-fixture.js';

let s: TestServer;
let admin: Api & { token: string };
beforeAll(async () => {
  s = await startTestServer();
  admin = await s.admin();
  expect((await postZoneReport(s, admin.token, FIXTURE_CSV)).status).toBe(200);
});
afterAll(() => s.close());

const send = (method: string, path: string, body: unknown) =>
  s.fetch(path, { method, headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** The answer's status and detail, and that the stored entities did not change. */
async function refused(method: string, path: string, body: unknown): Promise<string> {
  const before = await s.storedEntities();
  const res = await send(method, path, body);
  expect(res.status, JSON.stringify(body)).toBe(400);
  expect(await s.storedEntities()).toBe(before);
  return ((await res.json()) as { detail: string }).detail;
}

const tq = (params: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  name: 'TQ bajo',
  kind: 'tq_low',
  params: { scope: 'zone', threshold: 0.5, hours: 6, ...params },
  ...extra,
});

describe('alert rules', () => {
  test.each([
    [{ threshold: 5 }, 'Umbral: debe ser como máximo 1'],
    [{ threshold: -0.1 }, 'Umbral: debe ser al menos 0'],
    [{ hours: 0 }, 'Horas: debe ser al menos 1'],
    [{ min_impressions: 0 }, 'Impresiones mínimas: debe ser al menos 1'],
    [{ threshold: null }, 'Umbral: es obligatorio'],
    [{ hours: '' }, 'Horas: es obligatorio'],
  ])('a TQ rule with %j is refused on its scale, nothing stored', async (params, detail) => {
    expect(await refused('POST', '/api/alerts/rules', tq(params))).toBe(detail);
  });

  test('a revenue drop beyond 100 % is refused', async () => {
    const body = { name: 'Caída', kind: 'revenue_drop', params: { scope: 'zone', drop_percent: 150, hours: 24 } };
    expect(await refused('POST', '/api/alerts/rules', body)).toBe('Caída mínima (%): debe ser como máximo 100');
  });

  test("an empty 'Espera entre avisos' is refused, on creation and on change, never saved as 0 minutes", async () => {
    expect(await refused('POST', '/api/alerts/rules', tq({}, { cooldown_minutes: null }))).toBe('Espera entre avisos: es obligatorio');
    expect(await refused('POST', '/api/alerts/rules', tq({}, { cooldown_minutes: '' }))).toBe('Espera entre avisos: es obligatorio');
    const rule = await admin.alerts.createRule(tq({}));
    expect(rule.cooldown_minutes).toBe(60);
    expect(await refused('PATCH', `/api/alerts/rules/${rule.id}`, { cooldown_minutes: null })).toBe('Espera entre avisos: es obligatorio');
    await admin.alerts.deleteRule({ id: rule.id });
  });

  test('a rule for a zone no report names is refused with the reason; a reported one is saved as the reports spell it', async () => {
    const detail = await refused('POST', '/api/alerts/rules', tq({ target: 'Z-999' }));
    expect(detail).toBe(
      'Objetivo: la zona «Z-999» no aparece en ningún informe de zonas; elige uno de la lista de Zone ID o deja el objetivo vacío para vigilarlos todos',
    );
    const rule = await admin.alerts.createRule(tq({ target: 'z-100' }));
    expect(rule.params.target).toBe('Z-100');
    // A change to an unknown publisher is refused too, and the rule keeps its target.
    const change = { kind: 'tq_low', params: { scope: 'publisher', target: 'Publisher Que No Existe', threshold: 0.5, hours: 6 } };
    expect(await refused('PATCH', `/api/alerts/rules/${rule.id}`, change)).toMatch(/^Objetivo: el publisher «Publisher Que No Existe» no aparece/);
    expect((await admin.alerts.rules()).find((r) => r.id === rule.id)!.params.target).toBe('Z-100');
    await admin.alerts.deleteRule({ id: rule.id });
  });

  test('a rule for every zone (no target) and a traffic rule for a new host are saved', async () => {
    const every = await admin.alerts.createRule(tq({ target: null }));
    const host = await admin.alerts.createRule({
      name: 'Nuevo host',
      kind: 'referrer_burst',
      params: { target: 'nuevo.example.com', visits: 10, minutes: 5 },
    });
    for (const r of [every, host]) await admin.alerts.deleteRule({ id: r.id });
  });
});

describe('publisher tokens', () => {
  test('a token for a publisher no report or revenue share names is refused, nothing stored', async () => {
    expect(await refused('POST', '/api/admin/publisher-tokens', { publisher_name: 'Publisher Que No Existe' })).toBe(
      'El publisher «Publisher Que No Existe» no aparece en ningún informe de zonas ni en Publishers: su URL no devolvería nada. Elige uno de la lista o dale antes un revenue share',
    );
  });

  test('a reported publisher (any case) or one given a revenue share gets its token', async () => {
    expect((await admin.admin.createToken({ publisher_name: 'pubc' })).publisher_name).toBe('pubc');
    expect((await failure(admin.admin.createToken({ publisher_name: 'Nuevo Diario' }))).status).toBe(400);
    await admin.publishers.set({ name: 'Nuevo Diario', revenue_share: 0.5 });
    expect((await admin.admin.createToken({ publisher_name: 'Nuevo Diario' })).publisher_name).toBe('Nuevo Diario');
  });
});
