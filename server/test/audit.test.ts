// The audit trail over HTTP: every admin change (and every other recorded change) writes one
// entry naming who, from where, what and before/after, with no secret in it; GET /api/admin/audit
// filters, pages and exports it; bad input is a 4xx {detail} in Spanish.
import { beforeAll, describe, expect, test } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { contract, type Api, type AuditEntry } from '@adops/core';
import { ADMIN, type TestServer, failure } from './helpers.js';
import { totpCode } from './totp-codes.js';
import { event } from './warehouse-contract.js';
import { INGEST_KEY, auditServer } from './audit-fixture.js';

const ASSETS = fileURLToPath(new URL('../assets/sandbox-images/', import.meta.url));
let s: TestServer;
let admin: Api & { token: string };
let adminId: string;

const fixture = auditServer();
beforeAll(() => {
  ({ server: s, admin, adminId } = fixture);
});

/** Every entry, oldest first. */
const all = async (): Promise<AuditEntry[]> => (await admin.audit.list({ sort: 'at:asc', page_size: 500 })).rows;

/** The entries `change` wrote (entries are only ever appended, so they are the ones after the last before it). */
async function written(change: () => Promise<unknown>): Promise<AuditEntry[]> {
  const before = await all();
  await change();
  return (await all()).slice(before.length);
}

const newUser = async (over: Record<string, unknown> = {}) => {
  const email = `u${Math.random().toString(36).slice(2, 10)}@example.com`;
  return admin.admin.createUser({ first_name: 'Ana', last_name: 'Gómez', email, password: 'una-clave-larga-1', ...over });
};

const ndjson = (rows: object[]) => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;
const ZONE_CSV =
  'date,advertiser,publisher,zone_id,geo,source,domain,impressions,clicks,revenue\n2026-03-01,AdNova,PubA,Z-100,ES,search,a.com,1000,10,12\n';

interface Case {
  /** The contract route ('area.name') the change goes through. */
  route: string;
  action: string;
  target_kind: string;
  /** What the change needs first (its entries are not the case's). */
  setup?(): Promise<void>;
  run(): Promise<{ target_id?: string; before?: unknown; after?: unknown; refused?: boolean } | undefined>;
  /** Whose change it is (default: the admin). */
  actor?: () => { actor_type: AuditEntry['actor_type']; actor_id: string | null; actor_email: string | null };
}

const asAdmin = () => ({ actor_type: 'user' as const, actor_id: adminId, actor_email: ADMIN.email });

/** An open alert of a new rule (one IP over 1 visit in 10 minutes), for the mute cases. */
async function openAlert(): Promise<{ id: string; rule_id: string }> {
  const rule = await admin.alerts.createRule({ name: `Audit ${Math.random()}`, kind: 'ip_burst', params: { visits: 1, minutes: 10 } });
  const ip = `10.77.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
  const now = Date.now();
  await s.app.services.warehouse.referrers.append([
    event(9e8 + (now % 1e6), now - 1000, { zone_id: 'Z-A', ip }),
    event(9e8 + (now % 1e6) + 1, now - 500, { zone_id: 'Z-A', ip }),
  ]);
  await s.app.services.alerts.evaluate(now);
  const [alert] = (await admin.alerts.list({ rule_id: rule.id })).rows;
  return { id: alert.id, rule_id: rule.id };
}

const CASES: Case[] = [
  {
    route: 'alerts.createRule',
    action: 'alert_rule.create',
    target_kind: 'alert_rule',
    async run() {
      const r = await admin.alerts.createRule({ name: 'Regla audit', kind: 'ip_burst', params: { visits: 500, minutes: 5 } });
      return {
        target_id: r.id,
        before: null,
        after: expect.objectContaining({ name: 'Regla audit', kind: 'ip_burst', params: { visits: 500, minutes: 5 } }),
      };
    },
  },
  {
    route: 'alerts.updateRule',
    action: 'alert_rule.update',
    target_kind: 'alert_rule',
    async run() {
      const r = await admin.alerts.createRule({ name: 'Regla audit 2', kind: 'ip_burst', params: { visits: 500, minutes: 5 } });
      await admin.alerts.updateRule({ id: r.id, enabled: false });
      return { target_id: r.id, before: expect.objectContaining({ enabled: true }), after: expect.objectContaining({ enabled: false }) };
    },
  },
  {
    route: 'alerts.deleteRule',
    action: 'alert_rule.delete',
    target_kind: 'alert_rule',
    async run() {
      const r = await admin.alerts.createRule({ name: 'Regla audit 3', kind: 'ip_burst', params: { visits: 500, minutes: 5 } });
      await admin.alerts.deleteRule({ id: r.id });
      return { target_id: r.id, before: expect.objectContaining({ name: 'Regla audit 3' }), after: null };
    },
  },
  {
    route: 'alerts.mute',
    action: 'alert.mute',
    target_kind: 'alert',
    async run() {
      const a = await openAlert();
      const muted = await admin.alerts.mute({ id: a.id, minutes: 30 });
      await admin.alerts.deleteRule({ id: a.rule_id });
      return {
        target_id: a.id,
        before: { state: 'open', muted_until: null, muted_for: null },
        after: { state: 'muted', muted_until: muted.muted_until, muted_for: 'me' },
      };
    },
  },
  {
    route: 'alerts.unmute',
    action: 'alert.unmute',
    target_kind: 'alert',
    async run() {
      const a = await openAlert();
      await admin.alerts.mute({ id: a.id, for_everyone: true });
      await admin.alerts.unmute({ id: a.id, for_everyone: true });
      await admin.alerts.deleteRule({ id: a.rule_id });
      return {
        target_id: a.id,
        before: { state: 'muted', muted_until: null, muted_for: 'everyone' },
        after: { state: 'open', muted_until: null, muted_for: null },
      };
    },
  },
  {
    route: 'alerts.setSubscription',
    action: 'alert_subscription.update',
    target_kind: 'alert_subscription',
    async run() {
      await admin.alerts.setSubscription({ in_app: true, email: true, webhook_url: 'https://hooks.example.com/a', digest: true });
      // The webhook's signing secret never reaches the trail.
      return {
        target_id: adminId,
        after: expect.objectContaining({ email: true, webhook_url: 'https://hooks.example.com/a', webhook_secret: '[oculto]', digest: true }),
      };
    },
  },
  {
    route: 'alerts.undoAction',
    action: 'alert_action.undo',
    target_kind: 'meta_campaign',
    async run() {
      // A standing pause of a sandbox campaign, as the profit guard records it (alerts-guard.test.ts makes real ones).
      const campaign = s.app.services.campaigns.providers.metaSandbox!.ads()[0].campaign_id;
      const id = `audit-${Math.random()}`;
      await s.app.services.store.alertActions.create({
        id,
        rule_id: 'rule-audit',
        rule_name: 'Guardia audit',
        subject: campaign,
        level: 'campaign',
        account: 'act_1000000000001',
        action: 'pause',
        trigger: 'rule',
        status: 'done',
        detail: null,
        reason: 'ROI −80 %',
        figures: { spend: 50, roi: -80 },
        at: new Date().toISOString(),
        undone_at: null,
        undone_by: null,
        undone_by_rule: false,
      });
      const after = await admin.alerts.undoAction({ id });
      return {
        target_id: campaign,
        before: { status: 'PAUSED', undone_at: null, reason: 'ROI −80 %', figures: { spend: 50, roi: -80 } },
        after: { status: 'ACTIVE', undone_at: after.undone_at, undone_by: ADMIN.email, action_id: id },
      };
    },
  },
  {
    route: 'alerts.evaluate',
    action: 'alerts.evaluate',
    target_kind: 'alert_rule',
    async run() {
      await admin.alerts.evaluate();
      return { after: expect.objectContaining({ ran: true, errors: [] }) };
    },
  },
  {
    route: 'admin.createUser',
    action: 'user.create',
    target_kind: 'user',
    async run() {
      const u = await newUser({ is_admin: false });
      return { target_id: u.id, before: null, after: expect.objectContaining({ email: u.email, is_admin: false, first_name: 'Ana' }) };
    },
  },
  {
    route: 'admin.updateUser',
    action: 'user.update',
    target_kind: 'user',
    async run() {
      const u = await newUser();
      await admin.admin.updateUser({ id: u.id, first_name: 'Anabel' });
      return { target_id: u.id, before: { first_name: 'Ana' }, after: { first_name: 'Anabel' } };
    },
  },
  {
    route: 'admin.updateUser',
    action: 'user.admin_grant',
    target_kind: 'user',
    async run() {
      const u = await newUser();
      await admin.admin.updateUser({ id: u.id, is_admin: true });
      return { target_id: u.id, before: { is_admin: false }, after: { is_admin: true } };
    },
  },
  {
    route: 'admin.updateUser',
    action: 'user.admin_revoke',
    target_kind: 'user',
    async run() {
      const u = await newUser({ is_admin: true });
      await admin.admin.updateUser({ id: u.id, is_admin: false });
      return { target_id: u.id, before: { is_admin: true }, after: { is_admin: false } };
    },
  },
  {
    route: 'admin.updateUser',
    action: 'user.password_reset',
    target_kind: 'user',
    async run() {
      const u = await newUser();
      await s.as(u.email, 'una-clave-larga-1');
      await admin.admin.updateUser({ id: u.id, password: 'otra-clave-larga-2' });
      return { target_id: u.id, before: null, after: { password_changed: true, sessions_ended: 1 } };
    },
  },
  {
    route: 'admin.deleteUser',
    action: 'user.delete',
    target_kind: 'user',
    async run() {
      const u = await newUser();
      await admin.admin.deleteUser({ id: u.id });
      return { target_id: u.id, before: expect.objectContaining({ id: u.id, email: u.email }), after: null };
    },
  },
  {
    route: 'admin.resetUserTotp',
    action: 'user.2fa_reset',
    target_kind: 'user',
    async run() {
      const u = await newUser();
      const api = await s.as(u.email, 'una-clave-larga-1');
      const { secret } = await api.auth.totpBegin({ password: 'una-clave-larga-1' });
      await api.auth.totpConfirm({ code: await totpCode(secret) });
      await admin.admin.resetUserTotp({ id: u.id });
      return { target_id: u.id, before: { two_factor: true }, after: { two_factor: false } };
    },
  },
  {
    route: 'admin.endUserSessions',
    action: 'session.end_all',
    target_kind: 'user',
    async run() {
      const u = await newUser();
      await s.as(u.email, 'una-clave-larga-1');
      await s.as(u.email, 'una-clave-larga-1');
      await admin.admin.endUserSessions({ id: u.id });
      return { target_id: u.id, before: null, after: { sessions_ended: 2 } };
    },
  },
  {
    route: 'admin.endUserSession',
    action: 'session.end',
    target_kind: 'session',
    async run() {
      const u = await newUser();
      await s.as(u.email, 'una-clave-larga-1');
      const [session] = await admin.admin.userSessions({ id: u.id });
      await admin.admin.endUserSession({ id: u.id, session_id: session.id });
      return { target_id: session.id, before: expect.objectContaining({ ip: expect.stringMatching(/127\.0\.0\.1/) }), after: null };
    },
  },
  {
    route: 'admin.createToken',
    action: 'token.create',
    target_kind: 'publisher_token',
    async run() {
      const t = await admin.admin.createToken({ publisher_name: 'Diario Audit Uno' });
      return { target_id: t.id, before: null, after: expect.objectContaining({ publisher_name: 'Diario Audit Uno', token: '[oculto]' }) };
    },
  },
  {
    route: 'admin.renewToken',
    action: 'token.renew',
    target_kind: 'publisher_token',
    async run() {
      const t = await admin.admin.createToken({ publisher_name: 'Diario Audit Dos' });
      const renewed = await admin.admin.renewToken({ publisher_name: 'diario audit dos' });
      return {
        target_id: renewed.id,
        before: expect.objectContaining({ publisher_name: 'Diario Audit Dos', token: '[oculto]', created_at: t.created_at }),
        after: expect.objectContaining({ publisher_name: 'Diario Audit Dos', token: '[oculto]' }),
      };
    },
  },
  {
    route: 'admin.updateToken',
    action: 'token.update',
    target_kind: 'publisher_token',
    async run() {
      const t = await admin.admin.createToken({ publisher_name: 'Diario Audit Tres' });
      await admin.admin.updateToken({ id: t.id, allowed_ips: ['10.0.0.0/8'] });
      return {
        target_id: t.id,
        before: expect.objectContaining({ allowed_ips: [] }),
        after: expect.objectContaining({ allowed_ips: ['10.0.0.0/8'], token: '[oculto]' }),
      };
    },
  },
  {
    route: 'admin.deleteToken',
    action: 'token.revoke',
    target_kind: 'publisher_token',
    async run() {
      const t = await admin.admin.createToken({ publisher_name: 'Diario Audit Cuatro' });
      await admin.admin.deleteToken({ id: t.id });
      return { target_id: t.id, before: expect.objectContaining({ publisher_name: 'Diario Audit Cuatro', token: '[oculto]' }), after: null };
    },
  },
  {
    route: 'publishers.set',
    action: 'publisher.revenue_share',
    target_kind: 'publisher',
    async setup() {
      await admin.publishers.set({ name: 'PubAudit', revenue_share: 0.6 });
    },
    async run() {
      await admin.publishers.set({ name: 'pubaudit', revenue_share: 0.65 });
      return {
        target_id: 'PubAudit',
        before: { name: 'PubAudit', revenue_share: 0.6, configured: true },
        after: { name: 'PubAudit', revenue_share: 0.65, configured: true },
      };
    },
  },
  {
    route: 'ingest.zoneReport',
    action: 'zone_report.import',
    target_kind: 'zone_report',
    async run() {
      const res = await s.fetch('/api/ingest/zone-report', {
        method: 'POST',
        headers: { 'content-type': 'text/csv', authorization: `Bearer ${admin.token}` },
        body: ZONE_CSV,
      });
      expect(res.status).toBe(200);
      return { before: null, after: expect.objectContaining({ rejected_total: 0 }) };
    },
  },
  {
    route: 'referrers.ingest',
    action: 'referrers.import',
    target_kind: 'referrers',
    async run() {
      const res = await s.fetch('/api/ingest/referrers', {
        method: 'POST',
        headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${admin.token}` },
        body: ndjson([{ zone_id: 'Z-100', referrer: 'https://a.example.com/' }, { zone_id: 'Z-100' }]),
      });
      expect(res.status).toBe(200);
      return { before: null, after: expect.objectContaining({ accepted: 2, duplicates: 0 }) };
    },
  },
  {
    route: 'referrers.updateSpamList',
    action: 'referrer_spam.update',
    target_kind: 'referrer_spam',
    async run() {
      await admin.referrers.updateSpamList({ add: ['spam-audit.example'] });
      return { after: expect.objectContaining({ added: ['spam-audit.example'] }) };
    },
  },
  {
    route: 'profit.syncSpend',
    action: 'spend.sync',
    target_kind: 'ad_spend',
    async run() {
      const r = await admin.profit.syncSpend({});
      return { target_id: `${r.start_date}..${r.end_date}`, after: r };
    },
  },
  {
    route: 'profit.setRates',
    action: 'exchange_rates.update',
    target_kind: 'exchange_rates',
    async run() {
      await admin.profit.setRates({ rates: [{ month: '2026-03', currency: 'EUR', rate: 1.08 }] });
      return { target_id: 'USD', before: { rates: [] }, after: { rates: [{ month: '2026-03', currency: 'EUR', rate: 1.08 }] } };
    },
  },
  {
    route: 'admin.backup',
    action: 'backup.create',
    target_kind: 'backup',
    async run() {
      const res = await s.fetch('/api/admin/backup', {
        method: 'POST',
        headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ password: ADMIN.password, passphrase: 'una frase de paso larga' }),
      });
      // A backup copies the embedded stores; with PostgreSQL it is refused (409), and nothing is recorded.
      if (s.store === 'postgres') {
        expect(res.status).toBe(409);
        return { refused: true };
      }
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      return {};
    },
  },
];

describe('an audit entry for every admin route', () => {
  test('the protected admin’s creation at first start is the system’s first entry', async () => {
    const [first] = await all();
    expect(first).toMatchObject({
      actor_type: 'system',
      actor_id: null,
      action: 'user.create',
      target_kind: 'user',
      target_id: adminId,
      target_label: ADMIN.email,
    });
  });

  test('every route that changes something as an admin has a case below (a new admin route is covered the day it is declared)', () => {
    const changing = Object.entries(contract).flatMap(([area, routes]) =>
      Object.entries(routes)
        .filter(([, r]) => (r.access === 'admin' || r.access === 'ingest') && r.method !== 'GET')
        .map(([name]) => `${area}.${name}`),
    );
    const covered = new Set(CASES.map((c) => c.route));
    expect(changing.filter((r) => !covered.has(r))).toEqual([]);
  });

  test.each(CASES.map((c) => [`${c.route} → ${c.action}`, c] as const))(
    '%s writes one entry: actor, IP, request id, target, before/after',
    async (_, c) => {
      let expected: Awaited<ReturnType<Case['run']>>;
      await c.setup?.();
      const entries = (await written(async () => (expected = await c.run()))).filter((e) => e.action === c.action);
      if (expected?.refused) return expect(entries).toEqual([]);
      // Set-up calls of the case (creating the user it edits) write their own entries; this action exactly one.
      expect(entries).toHaveLength(1);
      const [e] = entries;
      expect(e).toMatchObject({ ...(c.actor ?? asAdmin)(), action: c.action, target_kind: c.target_kind });
      expect(e.ip).toMatch(/127\.0\.0\.1|::1/);
      expect(e.request_id).toMatch(/^[\w-]{8,64}$/);
      expect(Date.now() - Date.parse(e.at)).toBeLessThan(60_000);
      if (expected?.target_id) expect(e.target_id).toBe(expected.target_id);
      if (expected && 'before' in expected) expect(e.before).toEqual(expected.before);
      if (expected && 'after' in expected) expect(e.after).toEqual(expected.after);
      // No secret in any entry: no password, hash or token.
      expect(JSON.stringify(e)).not.toMatch(/scrypt\$|una-clave-larga|otra-clave-larga/);
    },
  );

  test('an edit changing name, admin right and password writes one entry per kind of change; an edit changing nothing writes none', async () => {
    const u = await newUser();
    const entries = await written(() => admin.admin.updateUser({ id: u.id, last_name: 'Ruiz', is_admin: true, password: 'otra-clave-larga-2' }));
    expect(entries.map((e) => e.action)).toEqual(['user.update', 'user.admin_grant', 'user.password_reset']);
    expect(entries[0]).toMatchObject({ before: { last_name: 'Gómez' }, after: { last_name: 'Ruiz' } });
    expect(await written(() => admin.admin.updateUser({ id: u.id, last_name: 'Ruiz' }))).toEqual([]);
  });

  test('a refused change writes nothing', async () => {
    const protectedEdit = await written(async () => {
      expect((await failure(admin.admin.updateUser({ id: adminId, first_name: 'X' }))).status).toBe(403);
      expect((await failure(admin.admin.deleteUser({ id: 'no-such-user' }))).status).toBe(404);
      expect((await failure(admin.admin.createToken({ publisher_name: '' }))).status).toBe(400);
    });
    expect(protectedEdit).toEqual([]);
  });

  test('the request id in an entry is the one the answer carried', async () => {
    const res = await s.fetch('/api/admin/users', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.token}`, 'x-request-id': 'audit-req-0001' },
      body: JSON.stringify({ first_name: 'Req', email: 'req@example.com', password: 'una-clave-larga-1' }),
    });
    expect(res.status).toBe(201);
    const [e] = (await admin.audit.list({ q: 'req@example.com', action: 'user.create' })).rows;
    expect(e.request_id).toBe('audit-req-0001');
  });

  test('a zone-report import with the ingest key is recorded as the ingest key’s; its referrer batches (the machine feed) are not recorded', async () => {
    const zone = await written(async () => {
      const res = await s.fetch('/api/ingest/zone-report', {
        method: 'POST',
        headers: { 'content-type': 'text/csv', 'x-ingest-key': INGEST_KEY },
        body: ZONE_CSV,
      });
      expect(res.status).toBe(200);
    });
    expect(zone).toHaveLength(1);
    expect(zone[0]).toMatchObject({ actor_type: 'ingest_key', actor_id: null, action: 'zone_report.import', after: { inserted: 0, replaced: 1 } });
    const feed = await written(async () => {
      const res = await s.fetch('/api/ingest/referrers', {
        method: 'POST',
        headers: { 'content-type': 'application/x-ndjson', 'x-ingest-key': INGEST_KEY },
        body: ndjson([{ zone_id: 'Z-100' }]),
      });
      expect(res.status).toBe(200);
    });
    expect(feed).toEqual([]);
  });

  test('a user changing their own password is recorded as theirs, with the sessions it ended', async () => {
    const u = await newUser();
    const ana = await s.as(u.email, 'una-clave-larga-1');
    await s.as(u.email, 'una-clave-larga-1');
    const entries = await written(() => ana.auth.changePassword({ current_password: 'una-clave-larga-1', new_password: 'otra-clave-larga-2' }));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor_type: 'user',
      actor_id: u.id,
      actor_email: u.email,
      action: 'user.password_change',
      target_id: u.id,
      after: { password_changed: true, sessions_ended: 2 },
    });
  });

  test('a campaign created by a staff user is recorded as theirs', async () => {
    const u = await newUser();
    const ana = await s.as(u.email, 'una-clave-larga-1');
    const f = new FormData();
    for (const [k, v] of Object.entries({ keyword: 'seguros audit', headline: 'Titular', body: 'Cuerpo del anuncio', alias: 'aud01' }))
      f.append(k, v);
    f.append('image', new Blob([await readFile(path.join(ASSETS, 'forest.png'))], { type: 'image/png' }), 'forest.png');
    const entries = await written(async () => {
      const res = await s.fetch('/api/create-campaign/', { method: 'POST', headers: { authorization: `Bearer ${ana.token}` }, body: f });
      expect(res.status).toBe(201);
    });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor_id: u.id,
      actor_email: u.email,
      action: 'campaign.create',
      target_kind: 'campaign',
      target_label: 'seguros audit',
      after: expect.objectContaining({ keyword: 'seguros audit', headline: 'Titular' }),
    });
  });

  test('the actor’s e-mail is the one they had then, even after it changes', async () => {
    const u = await newUser({ is_admin: true });
    const other = await s.as(u.email, 'una-clave-larga-1');
    const [e] = await written(() => other.admin.createToken({ publisher_name: 'Diario Audit Cinco' }));
    await admin.admin.updateUser({ id: u.id, email: 'cambiado@example.com' });
    const [again] = (await admin.audit.list({ target_id: e.target_id!, action: 'token.create' })).rows;
    expect(again.actor_email).toBe(u.email);
  });
});
