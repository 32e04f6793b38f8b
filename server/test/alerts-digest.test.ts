// The daily digest ('Resumen diario') against a local SMTP sink with an injected clock, reporting
// in Europe/Madrid with ADOPS_DIGEST_HOUR=8: nothing before 08:00, one e-mail per subscribed user
// from 08:00 even with two instances running at once, never a second that day; the cards are the
// report service's figures in core's formatting, the movers and open alerts the user's; a refused
// send is tried again 10 minutes later, at most 3 times.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import { DASHBOARD_CARDS, alertText, formatMetric, type Api, type DailyDeltas, type DashboardSummary } from '@adops/core';
import { failure, startTestServer, type TestServer } from './helpers.js';
import { ConfigError, loadConfig } from '../src/config.js';
import { importRows } from './warehouse-contract.js';
import { startSmtpSink, textPart, type SmtpSink } from './smtp-sink.js';
import { AlertDigest, deltaText } from '../src/services/alert-digest.js';
import type { AlertRecord } from '../src/store/types.js';
import type { ZoneReportRecord } from '../src/warehouse/index.js';

// 2026-03-10 in Madrid (UTC+1 until the end of March): 07:59 and 08:00 local.
const BEFORE = Date.parse('2026-03-10T06:59:00Z');
const AT = Date.parse('2026-03-10T07:00:00Z');
const MIN = 60_000;
const Y = '2026-03-09';
const B = '2026-03-08';

const row = (date: string, zone_id: string, publisher: string, revenue: number): ZoneReportRecord => ({
  date,
  advertiser: 'AdNova',
  publisher,
  zone_id,
  geo: 'ES',
  source: 'search',
  domain: 'a.com',
  impressions: 10_000,
  monetized_impressions: 10_000,
  clicks: 100,
  revenue,
  rate_applied: 0.7,
  p_revenue: revenue * 0.7,
  margin: revenue * 0.3,
  tq: 0.8,
});

let smtp: SmtpSink;
let s: TestServer;
let admin: Api & { token: string };
let ana: Api & { token: string };
const ids: Record<string, string> = {};
const alertTexts: string[] = [];

const mailTo = (email: string) => smtp.mails.filter((m) => m.to.includes(email));

beforeAll(async () => {
  smtp = await startSmtpSink();
  s = await startTestServer({
    tz: 'Europe/Madrid',
    // A network in euros: every amount of the e-mail carries €.
    currency: 'EUR',
    alerts: {
      everySeconds: 0,
      smtpUrl: smtp.url,
      mailFrom: 'AdOps <resumen@adops.test>',
      webhookAttempts: 1,
      webhookBackoffMs: 1,
      appUrl: 'https://adops.example.com',
      digestHour: 8,
    },
  });
  admin = await s.admin();
  for (const [name, email] of [
    ['Ana', 'ana@example.com'],
    ['Bob', 'bob@example.com'],
    ['Carla', 'carla@rechaza.test'],
  ]) {
    await admin.admin.createUser({ first_name: name, last_name: 'Test', email, password: 'una-clave-larga-1' });
  }
  for (const u of await admin.admin.listUsers()) ids[u.email] = u.id;
  ana = await s.as('ana@example.com', 'una-clave-larga-1');
  await importRows(s.app.services.warehouse, [
    row(Y, 'Z-UP', 'PubA', 150),
    row(Y, 'Z-DOWN', 'PubA', 40),
    row(Y, 'Z-FLAT', 'PubB', 50),
    row(B, 'Z-UP', 'PubA', 100),
    row(B, 'Z-DOWN', 'PubA', 100),
    row(B, 'Z-FLAT', 'PubB', 50),
  ]);
  // Two rules, each with an open alert.
  const store = s.app.services.store;
  // Fired a minute apart: the digest lists open alerts latest first, so its order is known.
  for (const [name, subject, at] of [
    ['IPs calientes', '10.1.1.1', '2026-03-10T05:01:00.000Z'],
    ['Referrers', 'spam.example', '2026-03-10T05:00:00.000Z'],
  ]) {
    const rule = await admin.alerts.createRule({ name, kind: 'ip_burst', params: { visits: 20, minutes: 10 } });
    ids[name] = rule.id;
    const alert: AlertRecord = {
      id: randomUUID(),
      rule_id: rule.id,
      subject,
      state: 'open',
      message: `Sujeto ${subject}: 25 visitas humanas en 10 min (umbral 20)`,
      value: 25,
      threshold: 20,
      figures: {},
      opened_at: at,
      fired_at: at,
      resolved_at: null,
      muted_until: null,
      muted_by: null,
      fire_count: 1,
      deliveries: [],
    };
    expect(await store.alerts.open(alert)).toBe(true);
    alertTexts.push(alertText({ kind: 'ip_burst', message: alert.message, rule_name: name, state: 'open' }));
  }
});
afterAll(async () => {
  await s?.close();
  await smtp?.close();
});

test('ADOPS_DIGEST_HOUR is a whole hour from 0 to 23, 8 by default', () => {
  expect(loadConfig({}).alerts.digestHour).toBe(8);
  expect(loadConfig({ ADOPS_DIGEST_HOUR: '0' }).alerts.digestHour).toBe(0);
  for (const bad of ['24', '7.5', 'ocho', '-1']) {
    expect(() => loadConfig({ ADOPS_DIGEST_HOUR: bad })).toThrow(ConfigError);
    expect(() => loadConfig({ ADOPS_DIGEST_HOUR: bad })).toThrow(/ADOPS_DIGEST_HOUR must be a whole number from 0 to 23/);
  }
});

describe('the daily digest', () => {
  test("'Resumen diario' is a channel flag of the API (true or false, said in Spanish otherwise)", async () => {
    const sub = await ana.alerts.setSubscription({ in_app: true, email: false, rule_ids: [ids['IPs calientes']], digest: true });
    expect(sub).toMatchObject({ digest: true, email: false, rule_ids: [ids['IPs calientes']] });
    expect((await ana.alerts.subscription()).digest).toBe(true);
    const bad = await failure(ana.alerts.setSubscription({ in_app: true, digest: 'sí' as unknown as boolean }));
    expect(bad).toMatchObject({ status: 400, detail: expect.stringContaining('Resumen diario: debe ser sí o no (true o false)') });
    expect((await ana.alerts.subscription()).digest).toBe(true);
    // Absent, it is off (like every other channel of the PUT).
    expect((await admin.alerts.setSubscription({ in_app: true })).digest).toBe(false);
    await admin.alerts.setSubscription({ in_app: true, digest: true });
    const bob = await s.as('bob@example.com', 'una-clave-larga-1');
    expect((await bob.alerts.subscription()).digest).toBe(false);
    const carla = await s.as('carla@rechaza.test', 'una-clave-larga-1');
    await carla.alerts.setSubscription({ in_app: true, digest: true });
  });

  test('nothing before the hour; at 08:00 one e-mail per subscriber, even with two instances at once; none again that day', async () => {
    expect(await s.app.services.alertDigest.run(BEFORE)).toEqual({ date: '2026-03-10', due: false, sent: 0, failed: 0 });
    expect(smtp.mails).toHaveLength(0);
    smtp.refuse.add('carla@rechaza.test');
    // A second instance on the same entity store.
    const other = new AlertDigest(s.app.services.store, s.app.services.reports, s.app.services.config, () => {});
    try {
      const runs = await Promise.all([s.app.services.alertDigest.run(AT), other.run(AT)]);
      expect(runs.reduce((n, r) => n + r.sent, 0)).toBe(2);
      expect(runs.reduce((n, r) => n + r.failed, 0)).toBe(1);
      expect(await other.run(AT + MIN)).toMatchObject({ due: true, sent: 0, failed: 0 });
    } finally {
      await other.close();
    }
    expect(smtp.mails.map((m) => m.to[0]).sort()).toEqual(['admin@test.local', 'ana@example.com']);
    expect(mailTo('bob@example.com')).toHaveLength(0);
    const day = await s.app.services.store.alerts.digests('2026-03-10');
    expect(day.map((d) => [d.user_id, d.status, d.attempts])).toEqual(
      [
        [ids['admin@test.local'], 'sent', 1],
        [ids['ana@example.com'], 'sent', 1],
        [ids['carla@rechaza.test'], 'failed', 1],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    expect(day.find((d) => d.user_id === ids['carla@rechaza.test'])?.detail).toMatch(/550/);
  });

  test("the e-mail says yesterday's cards as the report service computes them, the top movers and the user's open alerts", async () => {
    const reports = s.app.services.reports;
    const { summary } = await reports.overview({ start_date: Y, end_date: Y });
    const deltas = await reports.deltas({}, '2026-03-10');
    const [mail] = mailTo('admin@test.local');
    expect(mail.raw).toMatch(/^Subject: \[AdOps\] Resumen diario del 09\/03\/2026$/m);
    expect(mail.from).toBe('resumen@adops.test');
    const text = textPart(mail.raw);
    expect(text).toContain('Ayer, 09/03/2026 (Europe/Madrid)');
    for (const { key, header } of DASHBOARD_CARDS)
      expect(text).toContain(
        `${header}: ${formatMetric(key, summary[key as keyof DashboardSummary], 'EUR')} (${deltaText(deltas[key as keyof DailyDeltas])} frente al día anterior)`,
      );
    // The same figures by hand: 240 yesterday against 250 the day before.
    expect(text).toContain('Revenue: €240,00 (▼ 4,00% frente al día anterior)');
    expect(text).toContain('Margin: €72,00 (▼ 4,00% frente al día anterior)');
    // Movers: largest change first; a zone that did not move is not one.
    expect(text).toContain(
      [
        'Zonas:',
        '  Z-DOWN (PubA): €100,00 → €40,00 (▼ 60,00%)',
        '  Z-UP (PubA): €100,00 → €150,00 (▲ 50,00%)',
        'Publishers:',
        '  PubA: €200,00 → €190,00 (▼ 5,00%)',
        '',
      ].join('\n'),
    );
    expect(text).not.toContain('Z-FLAT');
    expect(text).toContain(['Alertas abiertas (2)', ...alertTexts].join('\n'));
    expect(text).toContain('Ver en AdOps: https://adops.example.com/alerts');
    expect(mail.raw).toContain('text/html');
    // Ana's channels name one rule: only its alert.
    const anas = textPart(mailTo('ana@example.com')[0].raw);
    expect(anas).toContain(['Alertas abiertas (1)', alertTexts[0]].join('\n'));
    expect(anas).not.toContain(alertTexts[1]);
    // What a run would send now is what was sent.
    expect((await s.app.services.alertDigest.message(ids['admin@test.local'], AT)).text).toBe(text);
  });

  test('a refused send is tried again 10 minutes later, up to 3 tries in all; the next day everyone gets the next one', async () => {
    const digest = s.app.services.alertDigest;
    expect(await digest.run(AT + 5 * MIN)).toMatchObject({ sent: 0, failed: 0 });
    expect(await digest.run(AT + 11 * MIN)).toMatchObject({ sent: 0, failed: 1 });
    smtp.refuse.clear();
    expect(await digest.run(AT + 22 * MIN)).toMatchObject({ sent: 1, failed: 0 });
    expect(mailTo('carla@rechaza.test')).toHaveLength(1);
    const carla = (await s.app.services.store.alerts.digests('2026-03-10')).find((d) => d.user_id === ids['carla@rechaza.test']);
    expect(carla).toMatchObject({ status: 'sent', attempts: 3 });
    expect(await digest.run(AT + 60 * MIN)).toMatchObject({ sent: 0, failed: 0 });
    // The next day, before and at the hour.
    expect(await digest.run(BEFORE + 24 * 60 * MIN)).toMatchObject({ date: '2026-03-11', due: false, sent: 0 });
    expect(await digest.run(AT + 24 * 60 * MIN)).toMatchObject({ date: '2026-03-11', due: true, sent: 3 });
    expect(smtp.mails).toHaveLength(6);
  });

  test("yesterday's cards are marked partial while yesterday's zone report is partial, and not once it is final", async () => {
    const digest = s.app.services.alertDigest;
    const flat = { ...row(Y, 'Z-FLAT', 'PubB', 50) };
    const reimport = (report?: 'final' | 'partial') =>
      admin.ingest.zoneReport(report ? { report } : undefined, { rawBody: JSON.stringify([flat]), headers: { 'content-type': 'application/json' } });
    // The same row again, known incomplete: the figures do not change, the cards say they may.
    expect((await reimport('partial')).days).toEqual([{ date: Y, report: 'partial' }]);
    let text = (await digest.message(ids['admin@test.local'], AT)).text;
    expect(text).toContain('Ayer, 09/03/2026 (Europe/Madrid) · informe parcial');
    expect(text).toContain('El informe de zonas de ayer es parcial: estas cifras cambiarán cuando llegue el informe final del 09/03/2026.');
    expect(text).toContain('Revenue: €240,00 (parcial) (▼ 4,00% frente al día anterior)');
    // Imported again after the day: final, and the mark goes.
    expect((await reimport()).days).toEqual([{ date: Y, report: 'final' }]);
    text = (await digest.message(ids['admin@test.local'], AT)).text;
    expect(text).toContain('Ayer, 09/03/2026 (Europe/Madrid)\n');
    expect(text).not.toContain('parcial');
  });
});
