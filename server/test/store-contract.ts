// The entity-store contract: every repository of the EntityStore interface, its uniqueness
// rules (e-mail regardless of case, one token per publisher, token hashes), update and delete
// semantics, races between writers, and hostile text. Every engine runs it (store.contract.test.ts),
// so the services behave the same on lowdb and on PostgreSQL.
import { afterEach, describe, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import { describeAuditContract } from './store-contract-audit.js';
import { describeAlertContract } from './store-contract-alerts.js';
import { describeAlertActionContract } from './store-contract-alert-actions.js';
import { describeAlertEvaluationContract } from './store-contract-alert-evaluations.js';
import { describeTotpContract } from './store-contract-totp.js';
import { type CampaignRecord, type EntityStore, StoreConflictError, StoreTextError, type TokenRecord, type UserRecord } from '../src/store/types.js';

/** Where one engine keeps its data: a temp dir, a new database. */
export interface StorePlace {
  open(): Promise<EntityStore>;
}

export interface StoreEngine {
  name: string;
  /** A new, empty place. */
  place(): Promise<StorePlace>;
  /** Stores opened on one place see each other's writes at once (several API instances). */
  shared: boolean;
  /** Text with U+0000 is kept (lowdb) or refused with StoreTextError (PostgreSQL's text cannot hold it). */
  keepsNul: boolean;
}

export const user = (over: Partial<UserRecord> = {}): UserRecord => ({
  id: randomUUID(),
  first_name: 'Ana',
  last_name: 'Gómez',
  email: `u-${randomUUID().slice(0, 8)}@example.com`,
  password_hash: 'scrypt$10$8$1$salt$hash',
  is_admin: false,
  protected: false,
  created_at: new Date().toISOString(),
  ...over,
});

export const token = (over: Partial<TokenRecord> = {}): TokenRecord => ({
  id: randomUUID(),
  publisher_name: 'Publisher Uno',
  token_sealed: `sealed-${randomUUID()}`,
  token_hash: randomUUID().replaceAll('-', '').repeat(2),
  created_at: new Date().toISOString(),
  last_used_at: null,
  expires_at: null,
  allowed_ips: [],
  rate_limit: null,
  request_count: 0,
  ...over,
});

export const campaign = (over: Partial<CampaignRecord> = {}): CampaignRecord => ({
  campaign_id: String(Math.floor(Math.random() * 1e15)),
  adset_id: '2',
  ad_id: '3',
  creative_id: '4',
  image_hash: 'abc123',
  keyword: 'seguros coche',
  headline: 'Titular',
  body: 'Cuerpo',
  objective: 'OUTCOME_SALES',
  daily_budget: 2.5,
  bid_amount: 0.07,
  tracking_url: 'https://example.com/?kw=seguros',
  created_by: 'admin@test.local',
  created_at: new Date().toISOString(),
  ...over,
});

/** The conflict's field, or a failure when `p` did not fail with a StoreConflictError. */
async function conflict(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(StoreConflictError);
    return (e as StoreConflictError).field;
  }
  throw new Error('expected a StoreConflictError');
}

export const HOSTILE = [
  "' OR 1=1 --",
  'Robert"); DROP TABLE users;--',
  '<script>alert(1)</script>',
  '$1 $$ %s %_ \\x00 \\\\ \\n',
  'línea 1\nlínea 2\r\n\ttab',
  'Ñandú 🦤 עברית العربية ‮',
  '{"$gt":""}',
  '__proto__',
  'x'.repeat(10_000),
  ' ',
];

export function describeStoreContract(engine: StoreEngine): void {
  describe(`entity store contract: ${engine.name}`, () => {
    const opened: EntityStore[] = [];
    /** A store on a new, empty place, and a way to open more stores on that place. */
    const fresh = async () => {
      const place = await engine.place();
      const open = async () => {
        const s = await place.open();
        opened.push(s);
        return s;
      };
      return { store: await open(), open };
    };
    afterEach(async () => {
      for (const s of opened.splice(0)) await s.close();
    });

    describe('users', () => {
      test('a created user is found by id and by e-mail in any case, and listed in creation order', async () => {
        const { store } = await fresh();
        const a = user({ email: 'ana@example.com', password_changed_at: '2026-03-01T10:00:00.123Z' });
        const b = user({ email: 'bea@example.com', is_admin: true });
        await store.users.create(a);
        await store.users.create(b);
        expect(await store.users.byId(a.id)).toEqual(a);
        expect(await store.users.byEmail('ANA@Example.COM')).toEqual(a);
        expect(await store.users.byEmail('nadie@example.com')).toBeUndefined();
        expect(await store.users.byId('nope')).toBeUndefined();
        expect(await store.users.list()).toEqual([a, b]);
        expect((await store.users.byId(b.id))!.password_changed_at).toBeUndefined();
      });

      test('an e-mail taken in another case is a conflict on email; a taken id a conflict on id; nothing is added', async () => {
        const { store } = await fresh();
        const a = user({ email: 'ana@example.com' });
        await store.users.create(a);
        expect(await conflict(store.users.create(user({ email: 'ANA@example.com' })))).toBe('email');
        expect(await conflict(store.users.create(user({ email: 'Ana@Example.Com' })))).toBe('email');
        expect(await conflict(store.users.create(user({ id: a.id })))).toBe('id');
        expect(await store.users.list()).toEqual([a]);
      });

      test('non-ASCII e-mails are unique regardless of case too', async () => {
        const { store } = await fresh();
        await store.users.create(user({ email: 'ñandú@example.com' }));
        expect(await conflict(store.users.create(user({ email: 'ÑANDÚ@example.com' })))).toBe('email');
        expect(await store.users.byEmail('ÑANDÚ@EXAMPLE.COM')).toMatchObject({ email: 'ñandú@example.com' });
      });

      test('an update applies the given fields only and answers the stored user; an unknown id is undefined', async () => {
        const { store } = await fresh();
        const a = user({ first_name: 'Edu', last_name: 'Ruiz' });
        await store.users.create(a);
        const changed = await store.users.update(a.id, { first_name: 'Eduardo', last_name: undefined, is_admin: true });
        expect(changed).toEqual({ ...a, first_name: 'Eduardo', is_admin: true });
        expect(await store.users.byId(a.id)).toEqual(changed);
        const at = '2026-04-01T08:30:00.250Z';
        const again = await store.users.update(a.id, { last_name: '', password_hash: 'scrypt$new', password_changed_at: at, is_admin: false });
        expect(again).toEqual({ ...a, first_name: 'Eduardo', last_name: '', password_hash: 'scrypt$new', password_changed_at: at, is_admin: false });
        expect(await store.users.update('missing', { first_name: 'X' })).toBeUndefined();
        expect(await store.users.list()).toHaveLength(1);
      });

      test('changing an e-mail to a taken one is a conflict that changes nothing; to its own in another case is fine', async () => {
        const { store } = await fresh();
        const a = user({ email: 'a1@example.com', first_name: 'A' });
        const b = user({ email: 'b1@example.com' });
        await store.users.create(a);
        await store.users.create(b);
        expect(await conflict(store.users.update(a.id, { email: 'B1@example.com', first_name: 'Changed' }))).toBe('email');
        expect(await store.users.byId(a.id)).toEqual(a);
        expect(await store.users.update(a.id, { email: 'A1@example.com' })).toMatchObject({ email: 'A1@example.com' });
        expect(await store.users.byEmail('a1@example.com')).toMatchObject({ id: a.id });
      });

      test('a removed user is gone; removing again is false', async () => {
        const { store } = await fresh();
        const a = user();
        const b = user();
        await store.users.create(a);
        await store.users.create(b);
        expect(await store.users.remove(a.id)).toBe(true);
        expect(await store.users.remove(a.id)).toBe(false);
        expect(await store.users.byId(a.id)).toBeUndefined();
        expect(await store.users.byEmail(a.email)).toBeUndefined();
        expect(await store.users.list()).toEqual([b]);
        // The e-mail is free again.
        await store.users.create(user({ email: a.email }));
      });

      test('the bootstrap admin is created once; a user with its e-mail is upgraded instead', async () => {
        const { store } = await fresh();
        const admin = user({ email: 'admin@example.com', first_name: 'Admin', is_admin: true, protected: true });
        expect(await store.users.bootstrapAdmin(admin)).toBe(true);
        expect(await store.users.bootstrapAdmin(user({ email: 'other@example.com', protected: true }))).toBe(false);
        expect(await store.users.list()).toEqual([admin]);

        const other = await fresh();
        const existing = user({ email: 'boss@example.com', first_name: 'Boss' });
        await other.store.users.create(existing);
        expect(await other.store.users.bootstrapAdmin(user({ email: 'boss@example.com', password_hash: 'scrypt$boot', protected: true }))).toBe(true);
        expect(await other.store.users.list()).toEqual([{ ...existing, protected: true, is_admin: true, password_hash: 'scrypt$boot' }]);
      });

      test(`concurrent creates of one e-mail ${engine.shared ? 'from two store instances ' : ''}leave exactly one user`, async () => {
        const { store, open } = await fresh();
        const twin = engine.shared ? await open() : store;
        const attempts = Array.from({ length: 10 }, (_, i) =>
          (i % 2 ? twin : store).users.create(user({ email: i % 3 ? 'race@example.com' : 'RACE@example.com' })),
        );
        const results = await Promise.allSettled(attempts);
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        for (const r of results) if (r.status === 'rejected') expect((r.reason as StoreConflictError).field).toBe('email');
        expect(await store.users.list()).toHaveLength(1);
        expect(await twin.users.byEmail('race@example.com')).toBeDefined();
      });

      test(`a bootstrap admin raced ${engine.shared ? 'by two store instances ' : ''}is created once`, async () => {
        const { store, open } = await fresh();
        const twin = engine.shared ? await open() : store;
        const results = await Promise.all(
          [store, twin, store, twin].map((s, i) => s.users.bootstrapAdmin(user({ email: `admin${i}@example.com`, is_admin: true, protected: true }))),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
        expect((await store.users.list()).filter((u) => u.protected)).toHaveLength(1);
      });

      if (engine.shared)
        test('a change by one store instance is seen by another at its next read', async () => {
          const { store, open } = await fresh();
          const twin = await open();
          const a = user();
          await store.users.create(a);
          expect(await twin.users.byEmail(a.email)).toEqual(a);
          await twin.users.update(a.id, { password_hash: 'scrypt$changed', password_changed_at: '2026-05-05T05:05:05.005Z' });
          expect(await store.users.byId(a.id)).toMatchObject({ password_hash: 'scrypt$changed', password_changed_at: '2026-05-05T05:05:05.005Z' });
          await store.users.remove(a.id);
          expect(await twin.users.byId(a.id)).toBeUndefined();
        });
    });

    describe('publisher tokens', () => {
      test('created tokens are listed in creation order and found by hash', async () => {
        const { store } = await fresh();
        const a = token({ publisher_name: 'Uno' });
        const b = token({
          publisher_name: 'Dos',
          last_used_at: '2026-01-02T03:04:05.006Z',
          expires_at: '2027-03-15T00:00:00.000Z',
          allowed_ips: ['203.0.113.0/24', '2001:db8::/32', '198.51.100.7'],
          rate_limit: 120,
          request_count: 42,
        });
        await store.tokens.create(a);
        await store.tokens.create(b);
        expect(await store.tokens.list()).toEqual([a, b]);
        expect(await store.tokens.byHash(b.token_hash)).toEqual(b);
        expect(await store.tokens.byId(b.id)).toEqual(b);
        expect(await store.tokens.byHash('0'.repeat(64))).toBeUndefined();
        expect(await store.tokens.byId(randomUUID())).toBeUndefined();
        expect(await conflict(store.tokens.create(token({ publisher_name: 'Tres', id: a.id })))).toBe('id');
      });

      test('one token per publisher, names compared ignoring case but not accents; hashes unique', async () => {
        const { store } = await fresh();
        const a = token({ publisher_name: 'Dos' });
        await store.tokens.create(a);
        expect(await conflict(store.tokens.create(token({ publisher_name: 'dos' })))).toBe('publisher_name');
        expect(await conflict(store.tokens.create(token({ publisher_name: 'DOS' })))).toBe('publisher_name');
        await store.tokens.create(token({ publisher_name: 'Ñandú' }));
        await store.tokens.create(token({ publisher_name: 'Nandu' }));
        expect(await conflict(store.tokens.create(token({ publisher_name: 'ñANDÚ' })))).toBe('publisher_name');
        expect(await conflict(store.tokens.create(token({ publisher_name: 'Otro', token_hash: a.token_hash })))).toBe('token_hash');
        expect((await store.tokens.list()).map((t) => t.publisher_name)).toEqual(['Dos', 'Ñandú', 'Nandu']);
      });

      test('replacing keeps the stored spelling, the place in the list, the id and the policy; the count starts over', async () => {
        const { store } = await fresh();
        const policy = { expires_at: '2027-01-01T00:00:00.000Z', allowed_ips: ['10.0.0.0/8'], rate_limit: 50 };
        const first = token({ publisher_name: 'Tres', ...policy, request_count: 9, last_used_at: '2026-01-01T00:00:00.000Z' });
        await store.tokens.create(first);
        await store.tokens.create(token({ publisher_name: 'Cuatro' }));
        const next = token({ publisher_name: 'TRES' });
        const stored = await store.tokens.replace('tres', next);
        expect(stored).toEqual({ ...next, publisher_name: 'Tres', id: first.id, ...policy, request_count: 0, last_used_at: null });
        expect(await store.tokens.byHash(first.token_hash)).toBeUndefined();
        expect((await store.tokens.list()).map((t) => t.publisher_name)).toEqual(['Tres', 'Cuatro']);
        expect(await store.tokens.byHash(next.token_hash)).toEqual(stored);
        expect(await store.tokens.replace('Nadie', token({ publisher_name: 'Nadie' }))).toBeUndefined();
        expect(await store.tokens.list()).toHaveLength(2);
      });

      test('recording uses adds to the count and keeps the latest use; removing by id', async () => {
        const { store } = await fresh();
        const a = token();
        await store.tokens.create(a);
        await store.tokens.recordUse(a.id, 3, '2026-02-03T04:05:06.789Z');
        await store.tokens.recordUse(a.id, 2, '2026-02-01T00:00:00.000Z'); // an instance's older uses, written late
        expect(await store.tokens.byId(a.id)).toMatchObject({ request_count: 5, last_used_at: '2026-02-03T04:05:06.789Z' });
        await store.tokens.recordUse(randomUUID(), 1, '2026-02-03T04:05:06.789Z');
        expect(await store.tokens.removeById(a.id)).toBe(true);
        expect(await store.tokens.removeById(a.id)).toBe(false);
        expect(await store.tokens.list()).toEqual([]);
      });

      test('updating changes only the fields given; null clears expiry and limit; an unknown id is undefined', async () => {
        const { store } = await fresh();
        const a = token({ expires_at: '2027-01-01T00:00:00.000Z', allowed_ips: ['10.0.0.1'], rate_limit: 10 });
        await store.tokens.create(a);
        expect(await store.tokens.update(a.id, { allowed_ips: ['::1', '192.0.2.0/24'] })).toEqual({ ...a, allowed_ips: ['::1', '192.0.2.0/24'] });
        expect(await store.tokens.update(a.id, { rate_limit: null, expires_at: null })).toEqual({
          ...a,
          allowed_ips: ['::1', '192.0.2.0/24'],
          rate_limit: null,
          expires_at: null,
        });
        expect(await store.tokens.update(a.id, { expires_at: '2028-02-29T23:00:00.000Z', rate_limit: 7, allowed_ips: [] })).toMatchObject({
          expires_at: '2028-02-29T23:00:00.000Z',
          rate_limit: 7,
          allowed_ips: [],
        });
        expect(await store.tokens.update(randomUUID(), { rate_limit: 1 })).toBeUndefined();
        expect(await store.tokens.list()).toHaveLength(1);
      });

      test(`concurrent creates for one publisher ${engine.shared ? 'from two store instances ' : ''}leave exactly one token`, async () => {
        const { store, open } = await fresh();
        const twin = engine.shared ? await open() : store;
        const results = await Promise.allSettled(
          ['Cinco', 'cinco', 'CINCO', 'Cinco', 'cInCo', 'Cinco'].map((name, i) =>
            (i % 2 ? twin : store).tokens.create(token({ publisher_name: name })),
          ),
        );
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        expect(await store.tokens.list()).toHaveLength(1);
      });
    });

    describe('campaigns', () => {
      test('added records are listed in creation order with their numbers intact; ids are unique', async () => {
        const { store } = await fresh();
        const a = campaign({ image_hash: 'img-a' });
        const b = campaign({ image_hash: 'img-b', daily_budget: 1234.56, bid_amount: 0.1 + 0.2 });
        await store.campaigns.add(a);
        await store.campaigns.add(b);
        expect(await store.campaigns.list()).toEqual([a, b]);
        expect(await conflict(store.campaigns.add(campaign({ campaign_id: a.campaign_id })))).toBe('campaign_id');
        expect(await store.campaigns.usesImage('img-b')).toBe(true);
        expect(await store.campaigns.usesImage('img-c')).toBe(false);
      });
    });

    describe('publishers’ revenue shares', () => {
      test('setting a share of a name differing only in case updates the entry and keeps its spelling', async () => {
        const { store } = await fresh();
        expect(await store.publishers.set('Pub Ñ', 0.6)).toEqual({ name: 'Pub Ñ', revenue_share: 0.6 });
        expect(await store.publishers.set('Otro', 0.5)).toEqual({ name: 'Otro', revenue_share: 0.5 });
        expect(await store.publishers.set('pub ñ', 0.65)).toEqual({ name: 'Pub Ñ', revenue_share: 0.65 });
        expect(await store.publishers.list()).toEqual([
          { name: 'Pub Ñ', revenue_share: 0.65 },
          { name: 'Otro', revenue_share: 0.5 },
        ]);
      });

      test('adding missing publishers keeps the configured ones and adds each new one once', async () => {
        const { store } = await fresh();
        await store.publishers.set('PubA', 0.9);
        await store.publishers.addMissing([
          { name: 'puba', revenue_share: 0.1 },
          { name: 'PubB', revenue_share: 0.7 },
          { name: 'PUBB', revenue_share: 0.2 },
          { name: 'PubC', revenue_share: 0.5 },
        ]);
        await store.publishers.addMissing([]);
        expect(await store.publishers.list()).toEqual([
          { name: 'PubA', revenue_share: 0.9 },
          { name: 'PubB', revenue_share: 0.7 },
          { name: 'PubC', revenue_share: 0.5 },
        ]);
      });
    });

    describe('settings', () => {
      test('a value is stored once: later puts answer the first one', async () => {
        const { store } = await fresh();
        expect(await store.settings.get('secrets')).toBeUndefined();
        const first = { jwt_secret: 'a', seal_key: 'b', nested: { n: 1, list: [1, 'x'] } };
        expect(await store.settings.putIfAbsent('secrets', first)).toEqual(first);
        expect(await store.settings.putIfAbsent('secrets', { jwt_secret: 'other' })).toEqual(first);
        expect(await store.settings.get('secrets')).toEqual(first);
      });

      test(`puts raced ${engine.shared ? 'by two store instances ' : ''}all answer the one stored value`, async () => {
        const { store, open } = await fresh();
        const twin = engine.shared ? await open() : store;
        const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? twin : store).settings.putIfAbsent('k', { i })));
        expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
        expect(await twin.settings.get('k')).toEqual(answers[0]);
      });

      test(`changes raced ${engine.shared ? 'by two store instances ' : ''}each apply to the value the previous one left`, async () => {
        const { store, open } = await fresh();
        const twin = engine.shared ? await open() : store;
        expect(await store.settings.update<string[]>('list', (v) => [...(v ?? []), 'first'])).toEqual(['first']);
        await Promise.all(
          Array.from({ length: 8 }, (_, i) => (i % 2 ? twin : store).settings.update<string[]>('list', (v) => [...(v ?? []), `n${i}`])),
        );
        const stored = (await twin.settings.get('list')) as string[];
        expect(stored).toHaveLength(9);
        expect(new Set(stored)).toEqual(new Set(['first', ...Array.from({ length: 8 }, (_, i) => `n${i}`)]));
      });
    });

    describe('two-factor sign-in (TOTP)', () => describeTotpContract(fresh, engine.shared, () => user()));

    describe('audit trail', () => describeAuditContract(fresh, engine.shared));

    describe('alerts', () => describeAlertContract(fresh, engine.shared, () => user()));

    describe('alert actions (profit guard)', () => describeAlertActionContract(fresh, engine.shared));
    describe('alert evaluation log', () => describeAlertEvaluationContract(fresh));

    describe('hostile text', () => {
      test('round-trips in every text field, and lookups by it find nothing else', async () => {
        const { store } = await fresh();
        for (const [i, text] of HOSTILE.entries()) {
          const u = user({ id: `${text}-${i}`, first_name: text, last_name: text, email: `${i}${text.slice(0, 50)}@example.com` });
          await store.users.create(u);
          expect(await store.users.byId(u.id)).toEqual(u);
          expect(await store.users.byEmail(u.email)).toEqual(u);
          const t = token({ publisher_name: `${text} ${i}` });
          await store.tokens.create(t);
          expect(await store.tokens.replace(t.publisher_name, { ...t, token_hash: `${t.token_hash}x` })).toMatchObject({
            publisher_name: t.publisher_name,
          });
          const c = campaign({ campaign_id: `${text}-${i}`, keyword: text, headline: text, body: text, tracking_url: text, image_hash: text });
          await store.campaigns.add(c);
          expect(await store.campaigns.usesImage(text)).toBe(true);
          expect(await store.publishers.set(`${text} ${i}`, 0.5)).toEqual({ name: `${text} ${i}`, revenue_share: 0.5 });
          expect(await store.settings.putIfAbsent(`${text}-${i}`, { text })).toEqual({ text });
        }
        const users = await store.users.list();
        expect(users.map((u) => u.first_name)).toEqual(HOSTILE);
        expect((await store.tokens.list()).map((t) => t.publisher_name)).toEqual(HOSTILE.map((h, i) => `${h} ${i}`));
        expect((await store.campaigns.list()).map((c) => c.body)).toEqual(HOSTILE);
        expect((await store.publishers.list()).map((p) => p.name)).toEqual(HOSTILE.map((h, i) => `${h} ${i}`));
        for (const probe of ["' OR 1=1 --", '%', '_', '*', "x' OR 'a'='a", '\u0000']) {
          expect(await store.users.byId(probe)).toBeUndefined();
          expect(await store.users.byEmail(probe)).toBeUndefined();
          expect(await store.tokens.byHash(probe)).toBeUndefined();
          expect(await store.tokens.byId(probe)).toBeUndefined();
          expect(await store.tokens.removeById(probe)).toBe(false);
          expect(await store.tokens.update(probe, { rate_limit: 1 })).toBeUndefined();
          expect(await store.users.remove(probe)).toBe(false);
          expect(await store.users.update(probe, { first_name: 'x' })).toBeUndefined();
          expect(await store.tokens.replace(probe, token({ publisher_name: probe }))).toBeUndefined();
        }
        expect(await store.users.list()).toEqual(users);
      });

      test(engine.keepsNul ? 'U+0000 round-trips' : 'U+0000 is refused with StoreTextError and nothing is stored', async () => {
        const { store } = await fresh();
        const u = user({ first_name: 'a\u0000b' });
        const writes = [
          () => store.users.create(u),
          () => store.tokens.create(token({ publisher_name: 'p\u0000' })),
          () => store.campaigns.add(campaign({ keyword: '\u0000' })),
          () => store.publishers.set('\u0000x', 0.5),
          () => store.settings.putIfAbsent('k', { v: '\u0000' }),
        ];
        for (const write of writes) {
          if (engine.keepsNul) await write();
          else await expect(write()).rejects.toBeInstanceOf(StoreTextError);
        }
        if (engine.keepsNul) expect(await store.users.byId(u.id)).toEqual(u);
        else {
          const other = user();
          await store.users.create(other);
          await expect(store.users.update(other.id, { last_name: 'x\u0000' })).rejects.toBeInstanceOf(StoreTextError);
          expect(await store.users.list()).toEqual([other]);
          expect(await store.tokens.list()).toEqual([]);
          expect(await store.settings.get('k')).toBeUndefined();
        }
      });
    });

    test('data written before a close is there when the store opens again', async () => {
      const place = await engine.place();
      const first = await place.open();
      const a = user();
      await first.users.create(a);
      await first.tokens.create(token({ publisher_name: 'Seis' }));
      await first.publishers.set('Seis', 0.4);
      await first.settings.putIfAbsent('secrets', { jwt_secret: 's' });
      await first.close();
      const again = await place.open();
      opened.push(again);
      expect(await again.users.list()).toEqual([a]);
      expect((await again.tokens.list()).map((t) => t.publisher_name)).toEqual(['Seis']);
      expect(await again.publishers.list()).toEqual([{ name: 'Seis', revenue_share: 0.4 }]);
      expect(await again.settings.get('secrets')).toEqual({ jwt_secret: 's' });
    });
  });
}
