// Webhooks cannot be aimed inside the network: loopback, private, link-local, unique-local and
// metadata addresses (however spelled, and behind a DNS name) are refused in words when saved and
// again when sent (a name that resolves elsewhere by then, an address stored before), a redirect
// to loopback is not followed, unless ADOPS_WEBHOOK_ALLOW names the host. A black-hole receiver
// does not slow an evaluation (delivery is in the background, each try bounded), and text from
// users reaches Slack/Teams escaped while the JSON `alert` stays as stored.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Api } from '@adops/core';
import { ConfigError, loadConfig } from '../src/config.js';
import { type ResolvedAddress, refusedAddressReason, webhookPolicy, webhookUrlRefusal } from '../src/services/webhook-address.js';
import { startTestServer, type TestServer } from './helpers.js';
import { event } from './warehouse-contract.js';

const T = Math.floor((Date.now() - 86_400_000) / 3_600_000) * 3_600_000;
const MIN = 60_000;

/** The hosts table the server resolves webhook names with (a test's own DNS). */
const hosts = new Map<string, string>([
  ['intranet.test', '10.0.0.7'],
  ['metadata.test', '169.254.169.254'],
  ['v6-private.test', 'fd12:3456::1'],
  ['public.test', '93.184.216.34'],
  ['hooks.test', '127.0.0.1'],
  ['blackhole.test', '127.0.0.1'],
]);
const resolve = async (host: string): Promise<ResolvedAddress[]> => {
  const address = hosts.get(host);
  if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return [{ address, family: net.isIP(address) === 6 ? 6 : 4 }];
};

/** Requests the local receiver got, by path. */
const hits: Array<{ path: string; body: string }> = [];
let receiver: http.Server;
let port: number;
/** Accepts connections and never answers. */
let blackHole: net.Server;
let blackHolePort: number;
const sockets = new Set<net.Socket>();

let s: TestServer;
let admin: Api & { token: string };
let nextId = 1;
/** The rounds fired so far (each at its own hour, for its own IP). */
let nextIp = 1;

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      hits.push({ path: req.url ?? '', body });
      if (req.url === '/moved') {
        res.writeHead(302, { location: `http://127.0.0.1:${port}/internal` });
        res.end();
        return;
      }
      res.end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  port = (receiver.address() as AddressInfo).port;
  blackHole = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((r) => blackHole.listen(0, '127.0.0.1', r));
  blackHolePort = (blackHole.address() as AddressInfo).port;
  s = await startTestServer({
    alerts: {
      everySeconds: 0,
      mailFrom: 'AdOps <alertas@adops.test>',
      webhookAttempts: 2,
      webhookBackoffMs: 20,
      appUrl: null,
      digestHour: 8,
      webhookAllow: ['hooks.test', 'blackhole.test'],
      webhookTimeoutMs: 1_500,
      webhookConnectTimeoutMs: 1_000,
      webhookResolve: resolve,
    },
  });
  admin = await s.admin();
});
afterAll(async () => {
  await s?.close();
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((r) => blackHole.close(() => r()));
  await new Promise<void>((r) => receiver.close(() => r()));
});

const putSubscription = (webhook_url: string) =>
  s.fetch('/api/alerts/subscription', {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.token}` },
    body: JSON.stringify({ in_app: true, webhook_url }),
  });

/** A rule that fires for one new IP now, and the evaluation that fires it. */
async function fireOnce(name = 'IPs calientes') {
  // Each its own hour, so that no earlier burst fires again.
  const round = nextIp++;
  const at = T - 20 * 60 * MIN + round * 60 * MIN;
  const ip = `10.77.0.${round}`;
  const rule = await admin.alerts.createRule({ name, kind: 'ip_burst', params: { visits: 20, minutes: 10 } });
  await s.app.services.warehouse.referrers.append(Array.from({ length: 25 }, (_, i) => event(nextId++, at - MIN + i, { zone_id: 'Z-1', ip })));
  const started = performance.now();
  const result = await s.app.services.alerts.evaluate(at);
  const ms = performance.now() - started;
  const alert = async () => {
    await s.app.services.alerts.deliveries();
    const [fired] = (await admin.alerts.list({ rule_id: rule.id, state: 'all' })).rows;
    await admin.alerts.deleteRule({ id: rule.id });
    return fired;
  };
  return { result, ms, alert };
}

describe('saving a webhook', () => {
  const refused: Array<[string, RegExp]> = [
    ['http://127.0.0.1/hook', /127\.0\.0\.1 es una dirección de este mismo servidor \(loopback\)/],
    ['http://[::1]:8080/hook', /::1 es una dirección de este mismo servidor/],
    ['http://0x7f000001/hook', /127\.0\.0\.1 es una dirección de este mismo servidor/],
    ['http://2130706433/hook', /127\.0\.0\.1 es una dirección de este mismo servidor/],
    ['http://0177.0.0.1/hook', /127\.0\.0\.1 es una dirección de este mismo servidor/],
    ['http://127.1/hook', /127\.0\.0\.1 es una dirección de este mismo servidor/],
    ['http://localhost:9000/hook', /localhost resuelve a (127\.0\.0\.1|::1), una dirección de este mismo servidor/],
    ['http://0.0.0.0/hook', /0\.0\.0\.0 es una dirección sin destino/],
    ['http://10.1.2.3/hook', /10\.1\.2\.3 es una dirección de red privada/],
    ['http://172.16.5.4/hook', /172\.16\.5\.4 es una dirección de red privada/],
    ['http://172.31.255.1/hook', /es una dirección de red privada/],
    ['http://192.168.1.10/hook', /192\.168\.1\.10 es una dirección de red privada/],
    ['http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254 es una dirección de enlace local \(entre ellas la de metadatos de la nube/],
    ['http://100.100.100.200/', /red compartida del proveedor/],
    ['http://[fc00::1]/hook', /fc00::1 es una dirección IPv6 privada \(fc00::\/7\)/],
    ['http://[fd00:ec2::254]/hook', /una dirección IPv6 privada/],
    ['http://[fe80::1]/hook', /fe80::1 es una dirección de enlace local/],
    ['http://[::ffff:127.0.0.1]/hook', /::ffff:7f00:1 es una dirección de este mismo servidor/],
    ['http://[::ffff:169.254.169.254]/hook', /es una dirección de enlace local/],
    ['http://[::ffff:10.0.0.1]/hook', /es una dirección de red privada/],
    ['http://[64:ff9b::7f00:1]/hook', /es una dirección de este mismo servidor/],
    ['http://intranet.test/hook', /intranet\.test resuelve a 10\.0\.0\.7, una dirección de red privada/],
    ['https://metadata.test/computeMetadata/v1/', /metadata\.test resuelve a 169\.254\.169\.254, una dirección de enlace local/],
    ['https://v6-private.test/hook', /v6-private\.test resuelve a fd12:3456::1, una dirección IPv6 privada/],
  ];
  for (const [url, detail] of refused)
    test(`${url} is refused with 400 in words, and nothing is stored`, async () => {
      const before = await admin.alerts.subscription();
      const res = await putSubscription(url);
      expect(res.status).toBe(400);
      const body = (await res.json()) as { detail: string };
      expect(body.detail).toMatch(/^El webhook no puede apuntar a /);
      expect(body.detail).toMatch(detail);
      expect(body.detail).toContain('ADOPS_WEBHOOK_ALLOW');
      expect(await admin.alerts.subscription()).toEqual(before);
    });

  test('a public address, a name resolving to one, a name allowed by ADOPS_WEBHOOK_ALLOW and a name that does not resolve yet are taken', async () => {
    for (const url of [
      'https://93.184.216.34/hook',
      'https://public.test/hook',
      `http://hooks.test:${port}/hook`,
      'https://hooks.example.invalid/a',
    ]) {
      const res = await putSubscription(url);
      expect(res.status, url).toBe(200);
      expect(((await res.json()) as { webhook_url: string }).webhook_url).toBe(url);
    }
  });
});

describe('sending a webhook', () => {
  test('an address stored before the check (or by another version) is refused when sending: no request leaves, and the notice says why', async () => {
    const { email } = await admin.auth.me();
    const me = (await admin.admin.listUsers()).find((u) => u.email === email)!.id;
    const current = await s.app.services.store.alerts.subscription(me);
    expect(current).toBeDefined();
    await s.app.services.store.alerts.setSubscription({
      ...current!,
      webhook_url: `http://127.0.0.1:${port}/stored-before`,
      webhook_secret: 'a'.repeat(48),
    });
    hits.length = 0;
    const { alert } = await fireOnce();
    const fired = await alert();
    expect(hits).toEqual([]);
    expect(fired.deliveries).toEqual([
      expect.objectContaining({
        channel: 'webhook',
        status: 'failed',
        attempts: 1,
        detail: expect.stringMatching(/^El webhook no puede apuntar a 127\.0\.0\.1 es una dirección de este mismo servidor/),
      }),
    ]);
  });

  test('a name that resolved to a public address when saved and to loopback when sent is refused at connection time', async () => {
    hosts.set('rebind.test', '93.184.216.34');
    await admin.alerts.setSubscription({ in_app: true, webhook_url: `http://rebind.test:${port}/rebound` });
    hosts.set('rebind.test', '127.0.0.1');
    hits.length = 0;
    const { alert } = await fireOnce();
    const fired = await alert();
    expect(hits).toEqual([]);
    expect(fired.deliveries[0]).toMatchObject({
      status: 'failed',
      attempts: 1,
      detail: expect.stringContaining('rebind.test resuelve a 127.0.0.1, una dirección de este mismo servidor'),
    });
  });

  test('a redirect to loopback is not followed: the receiver that redirects is asked once, the loopback address never', async () => {
    await admin.alerts.setSubscription({ in_app: true, webhook_url: `http://hooks.test:${port}/moved` });
    hits.length = 0;
    const { alert } = await fireOnce();
    const fired = await alert();
    expect(hits.map((h) => h.path)).toEqual(['/moved']);
    expect(fired.deliveries[0]).toMatchObject({
      status: 'failed',
      attempts: 1,
      detail: 'HTTP 302: las redirecciones no se siguen; usa la dirección final',
    });
  });

  test('a black-hole receiver does not slow the evaluation: it answers at once, the notice gives up after its time limit and says so', async () => {
    await admin.alerts.setSubscription({ in_app: true, webhook_url: `http://blackhole.test:${blackHolePort}/hook` });
    const { result, ms, alert } = await fireOnce();
    expect(result).toMatchObject({ fired: 1, notified: 1 });
    expect(ms).toBeLessThan(1_000);
    const started = performance.now();
    const fired = await alert();
    // Two tries of 1.5 s each (and a short backoff) before it gives up.
    expect(performance.now() - started).toBeGreaterThan(2_000);
    expect(fired.deliveries[0]).toMatchObject({ status: 'failed', attempts: 2, detail: 'Sin respuesta en 1,5 s' });
  });

  test('text from users reaches Slack/Teams escaped (no <!channel>, no hidden link); the JSON alert keeps it as written', async () => {
    await admin.alerts.setSubscription({ in_app: true, webhook_url: `http://hooks.test:${port}/slack` });
    hits.length = 0;
    const name = '<!channel> Pagos & cobros <https://evil.example/login|abre el informe>';
    const { alert } = await fireOnce(name);
    const fired = await alert();
    expect(fired.deliveries[0]).toMatchObject({ status: 'sent', detail: 'HTTP 200' });
    const payload = JSON.parse(hits[0].body) as { text: string; alert: { rule_name: string } };
    expect(payload.text).toContain('— regla «&lt;!channel&gt; Pagos &amp; cobros &lt;https://evil.example/login|abre el informe&gt;»');
    expect(payload.text).not.toMatch(/[<>]|&(?!amp;|lt;|gt;)/);
    expect(payload.alert.rule_name).toBe(name);
  });

  test('a Markdown link or image in user text reaches Teams broken apart (no link under innocent words, no remote image); it reads the same', async () => {
    await admin.alerts.setSubscription({ in_app: true, webhook_url: `http://hooks.test:${port}/teams` });
    hits.length = 0;
    const name = 'Pagos [abre el informe](https://evil.example/login) ![](https://tracker.example/p.png)';
    const { alert } = await fireOnce(name);
    expect((await alert()).deliveries[0]).toMatchObject({ status: 'sent' });
    const payload = JSON.parse(hits[0].body) as { text: string; alert: { rule_name: string } };
    expect(payload.text).not.toContain('](');
    expect(payload.text.replaceAll('\u200B', '')).toContain(`— regla «${name}»`);
    expect(payload.alert.rule_name).toBe(name);
  });

  test('by default a notice gives up soon: 3 s to connect and 5 s a try, so a slow receiver ties up no more than a few seconds a try', () => {
    const { webhookConnectTimeoutMs, webhookTimeoutMs } = loadConfig({}).alerts;
    expect([webhookConnectTimeoutMs, webhookTimeoutMs]).toEqual([3_000, 5_000]);
  });
});

describe('ADOPS_WEBHOOK_ALLOW', () => {
  test('reads hosts, addresses and CIDR ranges (commas or spaces); anything else stops the start naming the entry', () => {
    expect(loadConfig({}).alerts.webhookAllow).toEqual([]);
    expect(loadConfig({ ADOPS_WEBHOOK_ALLOW: 'hooks.internal, 10.20.0.0/16  fd00:1::/32,127.0.0.1' }).alerts.webhookAllow).toEqual([
      'hooks.internal',
      '10.20.0.0/16',
      'fd00:1::/32',
      '127.0.0.1',
    ]);
    for (const bad of ['10.0.0.0/33', 'http://hooks.internal', 'hooks internal/8', '10.0.0.0/8/1'])
      expect(() => loadConfig({ ADOPS_WEBHOOK_ALLOW: bad }), bad).toThrow(ConfigError);
    expect(() => loadConfig({ ADOPS_WEBHOOK_ALLOW: 'http://x' })).toThrow(/ADOPS_WEBHOOK_ALLOW: "http:\/\/x" is not a /);
  });

  test('a range lets in the addresses inside it only; a host lets in that name only, whatever it resolves to', async () => {
    const policy = webhookPolicy(['10.20.0.0/16', 'hooks.internal']);
    const to = (address: string) => async () => [{ address, family: 4 as const }];
    expect(await webhookUrlRefusal('http://10.20.3.4/h', policy, to('unused'))).toBeNull();
    expect(await webhookUrlRefusal('http://10.21.0.1/h', policy, to('unused'))).toMatch(/10\.21\.0\.1 es una dirección de red privada/);
    expect(await webhookUrlRefusal('http://svc.internal/h', policy, to('10.20.9.9'))).toBeNull();
    expect(await webhookUrlRefusal('http://svc.internal/h', policy, to('10.30.9.9'))).toMatch(/svc\.internal resuelve a 10\.30\.9\.9/);
    expect(await webhookUrlRefusal('http://HOOKS.internal./h', policy, to('127.0.0.1'))).toBeNull();
    expect(await webhookUrlRefusal('http://other.internal/h', policy, to('127.0.0.1'))).toMatch(/other\.internal resuelve a 127\.0\.0\.1/);
  });

  test('public addresses pass, IPv4 or IPv6, mapped or carried by NAT64 / 6to4', () => {
    for (const ok of ['93.184.216.34', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'])
      expect(refusedAddressReason(ok), ok).toBeNull();
    for (const bad of ['2002:a00:1::1', '64:ff9b:1::a9fe:a9fe', 'ff02::1', '224.0.0.1', '255.255.255.255'])
      expect(refusedAddressReason(bad), bad).not.toBeNull();
  });
});
