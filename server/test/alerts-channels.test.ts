// Alertas' channels against local receivers started here: a webhook server (JSON with a
// Slack-compatible text, HMAC-SHA-256 signature over "timestamp.body", retried with backoff on
// 5xx, not on a 4xx refusal) and an SMTP sink (smtp-server) that receives the e-mail nodemailer
// sends, both delivered after the evaluation answered. A re-fire within the cooldown notifies nobody. Each notice's outcome is kept with the
// alert (its history): the user sees their own, an admin every one.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import http from 'node:http';
import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Api } from '@adops/core';
import { decoded, startSmtpSink, type SmtpSink } from './smtp-sink.js';
import { startTestServer, type TestServer } from './helpers.js';
import { event } from './warehouse-contract.js';

const T = Math.floor((Date.now() - 86_400_000) / 3_600_000) * 3_600_000;
const MIN = 60_000;

interface Hit {
  headers: http.IncomingHttpHeaders;
  body: string;
}
const hits: Hit[] = [];
/** What the webhook answers, in turn (then 200). */
let answers: number[] = [];
let hook: http.Server;
let hookUrl: string;

let smtp: SmtpSink;
let mails: SmtpSink['mails'];

let s: TestServer;
let ana: Api & { token: string };
let nextId = 1;

beforeAll(async () => {
  hook = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      hits.push({ headers: req.headers, body });
      res.statusCode = answers.shift() ?? 200;
      res.end('ok');
    });
  });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hooks/adops`;
  smtp = await startSmtpSink();
  mails = smtp.mails;
  s = await startTestServer({
    alerts: {
      everySeconds: 0,
      smtpUrl: smtp.url,
      mailFrom: 'AdOps Alertas <alertas@adops.test>',
      webhookAttempts: 3,
      webhookBackoffMs: 20,
      appUrl: 'https://adops.example.com',
      digestHour: 8,
      // The receiver listens on this machine: allowed as ADOPS_WEBHOOK_ALLOW=127.0.0.1 would.
      webhookAllow: ['127.0.0.1'],
    },
  });
  const admin = await s.admin();
  await admin.admin.createUser({ first_name: 'Ana', last_name: 'Gómez', email: 'ana@example.com', password: 'una-clave-larga-1' });
  ana = await s.as('ana@example.com', 'una-clave-larga-1');
});
afterAll(async () => {
  await s?.close();
  await new Promise<void>((r) => hook.close(() => r()));
  await smtp?.close();
});

const burst = (at: number, ip: string) =>
  s.app.services.warehouse.referrers.append(Array.from({ length: 25 }, (_, i) => event(nextId++, at + i, { zone_id: 'Z-1', ip })));

describe('a new alert reaches the subscribed user by webhook and e-mail', () => {
  test('the webhook gets signed JSON with a Slack text, retried after 5xx until it is taken; the e-mail arrives with the alert', async () => {
    // A webhook makes the server send requests to an address of the user's choosing: admins only.
    await expect(ana.alerts.setSubscription({ in_app: true, email: true, webhook_url: hookUrl })).rejects.toMatchObject({
      status: 403,
      detail: expect.stringContaining('Solo un administrador puede configurar un webhook'),
    });
    expect((await ana.alerts.subscription()).webhook_url).toBeNull();
    const admin = await s.admin();
    const anaId = (await admin.admin.listUsers()).find((u) => u.email === 'ana@example.com')!.id;
    await admin.admin.updateUser({ id: anaId, is_admin: true });
    const sub = await ana.alerts.setSubscription({ in_app: true, email: true, webhook_url: hookUrl });
    expect(sub).toMatchObject({
      in_app: true,
      email: true,
      webhook_url: hookUrl,
      webhook_secret: expect.stringMatching(/^[0-9a-f]{48}$/),
      rule_ids: null,
    });
    // The same URL again keeps its secret.
    expect((await ana.alerts.setSubscription({ in_app: true, email: true, webhook_url: hookUrl })).webhook_secret).toBe(sub.webhook_secret);
    const rule = await ana.alerts.createRule({ name: 'IPs calientes', kind: 'ip_burst', params: { visits: 20, minutes: 10 } });
    await burst(T - MIN, '10.5.5.5');
    answers = [503, 502];
    const result = await s.app.services.alerts.evaluate(T);
    expect(result).toMatchObject({ fired: 1, notified: 2 });
    await s.app.services.alerts.deliveries();

    // Webhook: three tries (503, 502, 200), each signed over its own timestamp and the same body.
    expect(hits).toHaveLength(3);
    for (const h of hits) {
      const ts = String(h.headers['x-adops-timestamp']);
      const expected = `sha256=${createHmac('sha256', sub.webhook_secret!).update(`${ts}.${h.body}`).digest('hex')}`;
      expect(h.headers['x-adops-signature']).toBe(expected);
      expect(h.headers['content-type']).toMatch(/application\/json/);
    }
    const payload = JSON.parse(hits[2].body);
    expect(payload.text).toBe('[Alertas] Pico de una IP: IP 10.5.5.5: 25 visitas humanas en 10 min (umbral 20) — regla «IPs calientes»');
    expect(payload.alert).toMatchObject({
      subject: '10.5.5.5',
      state: 'open',
      rule_id: rule.id,
      rule_name: 'IPs calientes',
      kind: 'ip_burst',
      value: 25,
    });
    // A tampered body does not verify.
    expect(createHmac('sha256', sub.webhook_secret!).update(`${hits[2].headers['x-adops-timestamp']}.${hits[2].body} `).digest('hex')).not.toBe(
      String(hits[2].headers['x-adops-signature']).slice(7),
    );

    // E-mail: one message from ADOPS_MAIL_FROM to the user's address, saying what fired and where to see it.
    expect(mails).toHaveLength(1);
    const [m] = mails;
    expect(m.from).toBe('alertas@adops.test');
    expect(m.to).toEqual(['ana@example.com']);
    const text = decoded(m.raw);
    expect(text).toMatch(/^Subject: \[AdOps\] Pico de una IP: 10\.5\.5\.5$/m);
    expect(text).toMatch(/^From: AdOps Alertas <alertas@adops\.test>$/m);
    expect(text).toContain('IP 10.5.5.5: 25 visitas humanas en 10 min (umbral 20)');
    expect(text).toContain('Regla: IPs calientes');
    expect(text).toContain('Ver en AdOps: https://adops.example.com/alerts');

    // The alert's history keeps each notice: the webhook taken at the third try, the e-mail at the first.
    const [fired] = (await ana.alerts.list({ rule_id: rule.id, state: 'all' })).rows;
    const byChannel = Object.fromEntries(fired.deliveries.map((d) => [d.channel, d]));
    expect(fired.deliveries).toHaveLength(2);
    expect(byChannel.webhook).toMatchObject({ to: 'ana@example.com', status: 'sent', attempts: 3, detail: 'HTTP 200' });
    expect(byChannel.email).toMatchObject({ to: 'ana@example.com', status: 'sent', attempts: 1, detail: expect.stringMatching(/^250/) });
    expect(Date.parse(byChannel.webhook.at)).not.toBeNaN();
    // Another (non-admin) user sees the alert, not the notices to Ana's channels.
    await admin.admin.createUser({ first_name: 'Bob', last_name: 'Ruiz', email: 'bob@example.com', password: 'una-clave-larga-1' });
    const bob = await s.as('bob@example.com', 'una-clave-larga-1');
    const seen = (await bob.alerts.list({ rule_id: rule.id, state: 'all' })).rows;
    expect(seen.map((a) => [a.id, a.deliveries])).toEqual([[fired.id, []]]);
    await ana.alerts.deleteRule({ id: rule.id });
  });

  test('a webhook that refuses (4xx) is not retried; a re-fire within the cooldown sends nothing; a user subscribed to other rules gets nothing', async () => {
    hits.length = 0;
    mails.length = 0;
    const rule = await ana.alerts.createRule({ name: 'IPs 2', kind: 'ip_burst', cooldown_minutes: 60, params: { visits: 20, minutes: 10 } });
    const at = T + 60 * MIN;
    await burst(at - MIN, '10.6.6.6');
    answers = [404];
    expect(await s.app.services.alerts.evaluate(at)).toMatchObject({ fired: 1, notified: 2 });
    await s.app.services.alerts.deliveries();
    expect(hits).toHaveLength(1);
    const [refused] = (await ana.alerts.list({ rule_id: rule.id, state: 'all' })).rows;
    expect(refused.deliveries.find((d) => d.channel === 'webhook')).toMatchObject({ status: 'failed', attempts: 1, detail: 'HTTP 404' });
    expect(refused.deliveries.find((d) => d.channel === 'email')).toMatchObject({ status: 'sent' });
    await s.app.services.alerts.evaluate(at + 15 * MIN); // resolved
    await burst(at + 19 * MIN, '10.6.6.6');
    expect(await s.app.services.alerts.evaluate(at + 20 * MIN)).toMatchObject({ fired: 1, notified: 0 });
    expect(hits).toHaveLength(1);
    expect(mails).toHaveLength(1);
    await ana.alerts.setSubscription({ in_app: true, email: true, webhook_url: hookUrl, rule_ids: ['otra'] });
    await burst(at + 200 * MIN, '10.7.7.7');
    expect(await s.app.services.alerts.evaluate(at + 201 * MIN)).toMatchObject({ fired: 1, notified: 0 });
    expect(hits).toHaveLength(1);
    await ana.alerts.deleteRule({ id: rule.id });
  });
});
