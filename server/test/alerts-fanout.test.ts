// Alert fan-out bounded per evaluation: a rule that fires for many subjects at once sends each
// receiver its first ADOPS_ALERT_NOTICES_PER_RULE notices and one summary for the rest
// ('y 12 más'); every alert is still kept and listed in Alertas.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { loadConfig } from '../src/config.js';
import { startTestServer, type TestServer } from './helpers.js';
import { event } from './warehouse-contract.js';

const T = Math.floor((Date.now() - 86_400_000) / 3_600_000) * 3_600_000;
const MIN = 60_000;
const PER_RULE = 3;

const posts: Array<{ text: string; alert: { subject: string; rule_name: string; message: string; figures: Record<string, number> } }> = [];
let hook: http.Server;
let s: TestServer;
let nextId = 1;

beforeAll(async () => {
  hook = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      posts.push(JSON.parse(body));
      res.end('ok');
    });
  });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
  s = await startTestServer({
    quotas: { ...loadConfig({}).quotas, alertNoticesPerRule: PER_RULE },
    alerts: { ...loadConfig({}).alerts, everySeconds: 0, webhookAttempts: 1, webhookBackoffMs: 1, appUrl: null, webhookAllow: ['127.0.0.1'] },
  });
});
afterAll(async () => {
  await s?.close();
  await new Promise<void>((r) => hook.close(() => r()));
});

/** 25 visits in a minute from each address. */
const bursts = (ips: string[]) =>
  s.app.services.warehouse.referrers.append(
    ips.flatMap((ip) => Array.from({ length: 25 }, (_, i) => event(nextId++, T - MIN + i, { zone_id: 'Z-1', ip }))),
  );

test("a rule firing for 15 addresses sends 3 notices and one 'y 12 más'; all 15 alerts are kept", async () => {
  const admin = await s.admin();
  await admin.alerts.setSubscription({ in_app: true, email: false, webhook_url: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook` });
  const many = await admin.alerts.createRule({ name: 'IPs calientes', kind: 'ip_burst', params: { visits: 20, minutes: 10 } });
  const ips = Array.from({ length: 15 }, (_, i) => `10.8.0.${i + 1}`);
  await bursts(ips);

  const result = await s.app.services.alerts.evaluate(T);
  expect(result).toMatchObject({ fired: 15, notified: PER_RULE + 1 });
  await s.app.services.alerts.deliveries();

  expect(posts).toHaveLength(PER_RULE + 1);
  const summary = posts.find((p) => p.alert.subject === 'y 12 más')!;
  expect(summary.alert).toMatchObject({ rule_name: 'IPs calientes', figures: { alerts: 12 } });
  expect(summary.alert.message).toMatch(/^y 12 más en esta evaluación \((10\.8\.0\.\d+, ){4}10\.8\.0\.\d+…\): míralas en Alertas$/);
  expect(summary.text).toBe(`[Alertas] Pico de una IP: ${summary.alert.message} — regla «IPs calientes»`);
  // The individual notices and the summary name different addresses: together, every one.
  const individual = posts.filter((p) => p !== summary).map((p) => p.alert.subject);
  expect(new Set(individual).size).toBe(PER_RULE);
  for (const ip of individual) expect(summary.alert.message).not.toContain(`${ip},`);

  // Every alert is kept and listed, whatever the notices said.
  const listed = await admin.alerts.list({ rule_id: many.id, state: 'all', page_size: 100 });
  expect(listed.rows.map((a) => a.subject).sort()).toEqual([...ips].sort());
  // The summary's outcome is kept with the first alert it stands for.
  const withDelivery = listed.rows.filter((a) => a.deliveries.length > 0);
  expect(withDelivery).toHaveLength(PER_RULE + 1);
});

test('the quota counts per rule: a rule firing for 2 new addresses sends both, another firing for 17 sends 3 and a summary', async () => {
  posts.length = 0;
  const admin = await s.admin();
  await admin.alerts.createRule({ name: 'Todas las IPs', kind: 'ip_burst', params: { visits: 20, minutes: 10 } });
  await bursts(['10.9.0.1', '10.9.0.2']);
  // A minute on: the first rule's 15 alerts still hold (no new notice) and it fires for the 2 new
  // addresses; the new rule fires for all 17.
  expect(await s.app.services.alerts.evaluate(T + MIN)).toMatchObject({ fired: 19, notified: 2 + PER_RULE + 1 });
  await s.app.services.alerts.deliveries();
  const of = (rule: string) =>
    posts
      .filter((p) => p.alert.rule_name === rule)
      .map((p) => p.alert.subject)
      .sort();
  expect(of('IPs calientes')).toEqual(['10.9.0.1', '10.9.0.2']);
  const all = of('Todas las IPs');
  expect(all).toHaveLength(PER_RULE + 1);
  expect(all.filter((x) => x.startsWith('y '))).toEqual(['y 14 más']);
});
