// Backups of the embedded stores (POST /api/admin/backup, saved by `adops backup DIR`, brought
// back by `adops restore DIR`): taken while imports, referrer batches and new users keep
// arriving, the restored data dir holds exactly the state of one moment — every user, token,
// campaign, revenue share and fact acknowledged before the backup, nothing torn or partial —
// and a server started on it serves it. The admin's password (and 2FA code) is asked again, the
// copy's secrets are encrypted with the admin's passphrase and a restore needs it. Restoring, and
// refusing tampered or hostile backups, is in backup-restore.test.ts (shared parts: backup-fixture.ts).
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import * as tar from 'tar';
import { waitFor } from './wait.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Api } from '@adops/core';
import { BackupError, restoreBackup, saveBackup } from '../src/backup/index.js';
import type { Db } from '../src/warehouse/duckdb/db.js';
import { BackupService } from '../src/services/backup.js';
import { ADMIN, failure, startTestServer, type TestServer, knownPublishers } from './helpers.js';
import { awayFromStepEdge, totpCode } from './totp-codes.js';
import { PASSPHRASE, backupInto, backupRequest, importCsv } from './backup-fixture.js';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'adops-backup-test-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const RANGE = { start_date: '2026-03-01', end_date: '2026-03-31' };
/** Batch `j`: 25 events whose keyword names the batch. */
const batchNdjson = (j: number) =>
  Array.from({ length: 25 }, (_, e) =>
    JSON.stringify({
      zone_id: `Z-0-${e % 12}`,
      referrer: `https://site${e}.example/p`,
      keyword: `batch-${j}`,
      ip: '203.0.113.7',
      seen_at: '2026-03-02T10:00:00Z',
    }),
  ).join('\n');

const duck = (s: TestServer) => (s.app.services.warehouse as unknown as { db: Db }).db;

describe('a backup taken while writes keep coming', () => {
  test('restores into a new data dir exactly as of its moment: users, tokens, campaigns, shares, facts and referrer events', async () => {
    const a = await startTestServer();
    const admin = await a.admin();
    const { store } = a.app.services;
    await admin.publishers.set({ name: 'PubA', revenue_share: 0.6 });
    await knownPublishers(admin, 'PubA');
    const token = await admin.admin.createToken({ publisher_name: 'PubA' });
    await store.campaigns.add({
      campaign_id: 'c-1',
      adset_id: 'as-1',
      ad_id: 'ad-1',
      creative_id: 'cr-1',
      image_hash: 'h-1',
      keyword: 'zapatillas',
      headline: 'Zapatillas',
      body: 'Las mejores',
      objective: 'OUTCOME_TRAFFIC',
      daily_budget: 1000,
      bid_amount: 50,
      tracking_url: 'https://t.example/c-1',
      created_by: ADMIN.email,
      created_at: '2026-03-01T00:00:00.000Z',
    });

    // Three writers, each acknowledging its items in order.
    const acked = { imports: 0, batches: 0, users: 0 };
    let stop = false;
    const csvHeaders = { 'content-type': 'text/csv' };
    const writers = [
      (async () => {
        for (let i = 0; !stop; i++) {
          const result = await admin.ingest.zoneReport(undefined, { rawBody: importCsv(i), headers: csvHeaders });
          expect(result.inserted).toBe(12);
          acked.imports = i + 1;
        }
      })(),
      (async () => {
        for (let j = 0; !stop; j++) {
          const result = await admin.referrers.ingest(undefined, { rawBody: batchNdjson(j), headers: { 'content-type': 'application/x-ndjson' } });
          expect(result.accepted).toBe(25);
          acked.batches = j + 1;
        }
      })(),
      (async () => {
        for (let k = 0; !stop; k++) {
          await admin.admin.createUser({ first_name: `U${k}`, email: `u${k}@test.local`, password: 'x9-backup-Pass' });
          acked.users = k + 1;
        }
      })(),
    ];
    const until = async (ok: () => boolean) => {
      while (!ok()) await new Promise((r) => setTimeout(r, 10));
    };
    await until(() => acked.imports >= 2 && acked.batches >= 2 && acked.users >= 2);

    const before = { ...acked };
    const dir = path.join(work, 'concurrent', 'backup');
    const manifest = await backupInto(a, admin.token, dir);
    const after = { ...acked };
    // Writes went on while the backup was taken, and after it.
    await until(() => acked.imports > after.imports && acked.batches > after.batches && acked.users > after.users);
    stop = true;
    await Promise.all(writers);

    const dataDir = path.join(work, 'concurrent', 'data');
    const restored = await restoreBackup(dir, dataDir, { passphrase: PASSPHRASE });
    expect(restored.previous).toBeNull();
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
    for (const name of await readdir(dataDir)) expect((await stat(path.join(dataDir, name))).mode & 0o077, name).toBe(0);

    const b = await startTestServer({}, dataDir);
    try {
      const bAdmin = await b.admin(); // the admin's password hash and the JWT secret came back
      // Users: every one acknowledged before the backup, a prefix of the creations, records identical.
      const usersB = await b.app.services.store.users.list();
      const made = usersB.filter((u) => /^u\d+@/.test(u.email)).map((u) => Number(u.email.slice(1, u.email.indexOf('@'))));
      expect(made.length).toBeGreaterThanOrEqual(before.users);
      expect(made.length).toBeLessThanOrEqual(after.users + 1);
      expect(made).toEqual(made.map((_, k) => k));
      const usersA = await store.users.list();
      expect(usersB).toEqual(usersA.slice(0, usersB.length));
      expect(manifest.store.collections.users).toBe(usersB.length);
      await expect(b.as('u0@test.local', 'x9-backup-Pass')).resolves.toHaveProperty('token');
      // The audit trail (a file of the data dir) came back too, whole lines only.
      const audit = await b.fetch('/api/admin/audit?action=user.create&page_size=500', { headers: { authorization: `Bearer ${bAdmin.token}` } });
      expect(audit.status).toBe(200);
      // (the protected admin's own creation, by 'system' on first start, is not one of the writer's)
      const entries = ((await audit.json()) as { rows: Array<{ target_label: string | null }> }).rows;
      const createdInAudit = entries.filter((e) => /^u\d+@/.test(e.target_label ?? '')).length;
      expect(createdInAudit).toBeGreaterThanOrEqual(before.users);
      expect(createdInAudit).toBeLessThanOrEqual(made.length);

      // Tokens, campaigns, shares: identical, and the publisher's token URL works on the restored server.
      expect(await b.app.services.store.tokens.list()).toEqual(await store.tokens.list());
      expect(await b.app.services.store.campaigns.list()).toEqual(await store.campaigns.list());
      expect(await b.app.services.store.publishers.list()).toEqual(await store.publishers.list());
      const pub = await b.fetch(`/api/publisher/data?${new URLSearchParams({ ...RANGE, token: token.token })}`);
      expect(pub.status).toBe(200);
      expect(((await pub.json()) as { total_rows: number }).total_rows).toBeGreaterThan(0);

      // Zone reports: whole imports only, a prefix of them, each row equal to the source's.
      const imported = (
        await duck(b).all<{ advertiser: string; n: number }>(
          'SELECT advertiser, count(*) AS n FROM zone_report GROUP BY advertiser ORDER BY advertiser',
        )
      ).map((r) => [Number(r.advertiser.slice(4)), r.n] as const);
      const importsB = imported.map(([i]) => i).sort((x, y) => x - y);
      expect(importsB).toEqual(importsB.map((_, i) => i));
      expect(importsB.length).toBeGreaterThanOrEqual(before.imports);
      expect(importsB.length).toBeLessThanOrEqual(after.imports + 1);
      for (const [i, n] of imported) expect(n, `import ${i}`).toBe(12);
      const rowsOf = (s: TestServer) =>
        duck(s).all('SELECT * FROM zone_report WHERE advertiser IN (SELECT unnest($advertisers::VARCHAR[])) ORDER BY zone_id', {
          advertisers: `[${importsB.map((i) => `Adv-${i}`).join(',')}]`,
        });
      expect(await rowsOf(b)).toEqual(await rowsOf(a));
      const totals = await bAdmin.dashboard.overview(RANGE);
      expect(totals.summary.revenue).toBeCloseTo(manifest.warehouse.tables.zone_report.sums.revenue, 6);
      expect(manifest.warehouse.tables.zone_report.rows).toBe(importsB.length * 12);

      // Referrer events: whole batches only, a prefix of them, every event (id included) as stored.
      const batches = await duck(b).all<{ keyword: string; n: number }>('SELECT keyword, count(*) AS n FROM referrer_event GROUP BY keyword');
      const batchesB = batches.map((r) => Number(r.keyword.slice(6))).sort((x, y) => x - y);
      expect(batchesB).toEqual(batchesB.map((_, j) => j));
      expect(batchesB.length).toBeGreaterThanOrEqual(before.batches);
      expect(batchesB.length).toBeLessThanOrEqual(after.batches + 1);
      for (const r of batches) expect(r.n, r.keyword).toBe(25);
      const eventsOf = (s: TestServer) =>
        duck(s).all(`SELECT * FROM referrer_event WHERE keyword IN (${batchesB.map((j) => `'batch-${j}'`).join(',') || "''"}) ORDER BY id`);
      expect(await eventsOf(b)).toEqual(await eventsOf(a));
      expect(await b.app.services.warehouse.referrers.countEvents()).toBe(manifest.warehouse.tables.referrer_event.rows);
      // New events continue after the restored ids.
      const next = await bAdmin.referrers.ingest(undefined, { rawBody: batchNdjson(999), headers: { 'content-type': 'application/x-ndjson' } });
      expect(next.first_id).toBeGreaterThan(
        Math.max(...((await eventsOf(b)) as Array<{ id: number }>).filter((e) => e.id < next.first_id!).map((e) => e.id)),
      );
    } finally {
      await b.close();
      await a.close();
    }
  }, 60_000);
});

describe('who may take a backup, and what it holds', () => {
  let s: TestServer;
  let admin: Api & { token: string };
  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.admin();
  });
  afterAll(() => s.close());

  test('staff get 403 and anonymous callers 401, and nothing is written to the data dir', async () => {
    await admin.admin.createUser({ first_name: 'Ana', email: 'staff@test.local', password: 'x9-backup-Pass' });
    const staff = await s.as('staff@test.local', 'x9-backup-Pass');
    const listing = async () => (await readdir(s.dataDir)).sort();
    const files = await listing();
    const forbidden = await s.fetch('/api/admin/backup', { method: 'POST', headers: { authorization: `Bearer ${staff.token}` } });
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toEqual({ detail: 'No autorizado' });
    const anonymous = await s.fetch('/api/admin/backup', { method: 'POST' });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toHaveProperty('detail');
    expect(await listing()).toEqual(files);
  });

  test('the manifest lists every file with its checksum and counts every collection and table; the archive holds nothing else', async () => {
    const dir = path.join(work, 'listing');
    const manifest = await backupInto(s, admin.token, dir);
    expect(manifest.format).toBe('adops-backup');
    expect(manifest.store.collections.users).toBeGreaterThanOrEqual(1);
    expect(Object.keys(manifest.warehouse.tables)).toEqual(expect.arrayContaining(['zone_report', 'referrer_event', 'referrer_event_key']));
    const paths = manifest.files.map((f) => f.path);
    expect(paths).toEqual(
      expect.arrayContaining(['entities/adops.json.enc', 'files/secrets.json.enc', 'warehouse/schema.sql', 'warehouse/zone_report.parquet']),
    );
    for (const f of manifest.files) expect(f.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    // The temporary copy in the data dir is gone once the archive was sent.
    await waitFor(async () => (await readdir(s.dataDir)).every((n) => !n.startsWith('.backup-')), 'the temporary copy to go');
  });

  test('an unknown field, a parameter in the address or an oversized body is refused before any work', async () => {
    const auth = { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' };
    const listing = async () => (await readdir(s.dataDir)).sort();
    const files = await listing();
    const good = { password: ADMIN.password, passphrase: PASSPHRASE };
    const cases: Array<[string, RequestInit, number, RegExp]> = [
      ['/api/admin/backup', { method: 'POST', headers: auth, body: JSON.stringify({ ...good, dir: '../../etc' }) }, 400, /^Campo no admitido: dir$/],
      [
        '/api/admin/backup',
        { method: 'POST', headers: auth, body: JSON.stringify({ ...good, pad: 'x'.repeat(2 * 1024 * 1024) }) },
        413,
        /demasiado grande/,
      ],
      [
        '/api/admin/backup?dir=%2Fetc&format=zip',
        { method: 'POST', headers: auth, body: JSON.stringify(good) },
        400,
        /no admite parámetros en la dirección: "dir", "format"/,
      ],
    ];
    for (const [url, init, status, detail] of cases) {
      const res = await s.fetch(url, init);
      expect(res.status, url).toBe(status);
      expect(((await res.json()) as { detail: string }).detail).toMatch(detail);
    }
    expect(await listing()).toEqual(files);
  });

  test('the admin is asked for their password again, and for a passphrase of 12 characters at least; nothing is written otherwise', async () => {
    const listing = async () => (await readdir(s.dataDir)).sort();
    const files = await listing();
    const refused: Array<[object, RegExp]> = [
      [{}, /^Indica tu contraseña$/],
      [{ passphrase: PASSPHRASE }, /^Indica tu contraseña$/],
      [{ password: ADMIN.password }, /^Indica una frase de paso/],
      [{ password: ADMIN.password, passphrase: 'corta' }, /^La frase de paso debe tener al menos 12 caracteres$/],
      [{ password: 'no-es-la-mía', passphrase: PASSPHRASE }, /^La contraseña actual no es correcta$/],
    ];
    for (const [body, detail] of refused) {
      const res = await backupRequest(s, admin.token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toMatch(detail);
    }
    expect(await listing()).toEqual(files);
    // Wrong passwords count toward the sign-in limits, as sign-ins would: a borrowed session cannot guess on.
    await admin.admin.createUser({ first_name: 'Otra', email: 'otra-admin@test.local', password: 'x9-backup-Pass', is_admin: true });
    const other = await s.as('otra-admin@test.local', 'x9-backup-Pass');
    for (let i = 0; i < 5; i++) await backupRequest(s, other.token, { password: `mala-${i}`, passphrase: PASSPHRASE });
    const limited = await backupRequest(s, other.token, { password: 'x9-backup-Pass', passphrase: PASSPHRASE });
    expect(limited.status).toBe(429);
    expect(await listing()).toEqual(files);
  });

  test('the secrets in the copy are encrypted: no key of secrets.json, password hash, TOTP seed or sealed token is in any of its files', async () => {
    await admin.publishers.set({ name: 'PubSecreto', revenue_share: 0.5 });
    await knownPublishers(admin, 'PubSecreto');
    await admin.admin.createToken({ publisher_name: 'PubSecreto' });
    await awayFromStepEdge();
    const { secret } = await admin.auth.totpBegin({ password: ADMIN.password });
    await admin.auth.totpConfirm({ code: await totpCode(secret, -1) });
    const stored = JSON.parse(await readFile(path.join(s.dataDir, 'adops.json'), 'utf8')) as {
      users: Array<{ password_hash: string }>;
      totp: Array<{ secret_sealed: string }>;
      publisherTokens: Array<{ token_sealed: string; token_hash: string }>;
    };
    const keys = JSON.parse(await readFile(path.join(s.dataDir, 'secrets.json'), 'utf8')) as Record<string, string>;
    const secrets = [
      ...Object.values(keys),
      ...stored.users.map((u) => u.password_hash.split('$').at(-1)!),
      ...stored.totp.map((t) => t.secret_sealed),
      ...stored.publisherTokens.flatMap((t) => [t.token_sealed, t.token_hash]),
      secret,
    ];
    expect(secrets.length).toBeGreaterThanOrEqual(7);

    // With 2FA on, the code is asked too: missing, then wrong (both refused in words), then right.
    const missing = await backupRequest(s, admin.token);
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ detail: /verificación en dos pasos: indica también el código/, totp_required: true });
    const wrong = await backupRequest(s, admin.token, { password: ADMIN.password, passphrase: PASSPHRASE, code: '000000' });
    expect(await wrong.json()).toMatchObject({ detail: 'El código de verificación no es correcto', totp_required: true });
    const res = await backupRequest(s, admin.token, { password: ADMIN.password, passphrase: PASSPHRASE, code: await totpCode(secret, 1) });
    expect(res.status).toBe(200);
    const dir = path.join(work, 'encrypted');
    const manifest = await saveBackup(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), dir);
    expect(manifest).toMatchObject({
      format_version: 2,
      encryption: { cipher: 'aes-256-gcm', kdf: 'scrypt', r: 8, p: 1, files: expect.arrayContaining(['entities/adops.json', 'files/secrets.json']) },
    });
    const paths = manifest.files.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['entities/adops.json.enc', 'files/secrets.json.enc', 'warehouse/zone_report.parquet']));
    expect(paths.filter((p) => !p.startsWith('warehouse/') && !p.endsWith('.enc'))).toEqual([]);
    for (const file of paths) {
      const bytes = await readFile(path.join(dir, file));
      for (const text of secrets) {
        expect(bytes.includes(Buffer.from(text)), `${file} holds a secret in the clear`).toBe(false);
        expect(bytes.includes(Buffer.from(text, 'base64')) && text.length >= 40, `${file} holds a secret's bytes`).toBe(false);
      }
    }
    await admin.auth.totpDisable({ password: ADMIN.password });
  });
  test('one backup at a time: a second one while the first is being sent is refused as a conflict (409), and the next one after it works', async () => {
    const backups = new BackupService({ dataDir: s.dataDir, store: s.app.services.store, warehouse: s.app.services.warehouse });
    const first = await backups.create({ passphrase: PASSPHRASE, logN: 10 });
    const second = await failure(backups.create({ passphrase: PASSPHRASE, logN: 10 }));
    expect(second).toMatchObject({ kind: 'conflict', message: 'Ya hay una copia de seguridad en curso: espera a que termine' });
    for await (const _ of first.archive);
    const third = await backups.create({ passphrase: PASSPHRASE, logN: 10 });
    expect(third.manifest.created_at > first.manifest.created_at).toBe(true);
    third.archive.destroy();
    await waitFor(async () => (await readdir(s.dataDir)).every((n) => !n.startsWith('.backup-')), 'the temporary copy to go');
  });

  test('the backup is in the audit trail', async () => {
    const res = await s.fetch('/api/admin/audit?action=backup.create', { headers: { authorization: `Bearer ${admin.token}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { rows: Array<{ action: string }> };
    expect(body.rows.map((r) => r.action)).toContain('backup.create');
  });

  test('a backup into a directory that is not empty is refused and the directory left as it was', async () => {
    const dir = path.join(work, 'occupied');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'keep.txt'), 'mine');
    const res = await backupRequest(s, admin.token);
    await expect(saveBackup(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), dir)).rejects.toThrow(/no está vacío/);
    expect(await readdir(dir)).toEqual(['keep.txt']);
    expect((await readdir(work)).filter((n) => n.startsWith('occupied.partial-'))).toEqual([]);
  });

  test('hostile archives are refused: an entry climbing out, an absolute path, a truncated or non-tar body', async () => {
    const craft = path.join(work, 'craft');
    await mkdir(path.join(craft, 'inner'), { recursive: true });
    await writeFile(path.join(craft, 'evil.txt'), 'pwned');
    await writeFile(path.join(craft, 'manifest.json'), '{}');
    const archive = async (cwd: string, entries: string[]) => {
      const chunks: Buffer[] = [];
      for await (const c of tar.c({ cwd, preservePaths: true }, entries) as AsyncIterable<Buffer>) chunks.push(c);
      return Buffer.concat(chunks);
    };
    const climbing = await archive(path.join(craft, 'inner'), ['../manifest.json', '../evil.txt']);
    const absolute = await archive(craft, [path.join(craft, 'evil.txt')]);
    const res = await backupRequest(s, admin.token);
    const whole = Buffer.from(await res.arrayBuffer());
    const bodies: Array<[string, Buffer]> = [
      ['climbing', climbing],
      ['absolute', absolute],
      ['truncated', whole.subarray(0, Math.floor(whole.length / 2))],
      ['not a tar', Buffer.from('{"detail":"hola"}')],
      ['empty', Buffer.alloc(0)],
    ];
    for (const [label, body] of bodies) {
      const dir = path.join(work, 'hostile', label);
      await expect(saveBackup(Readable.from([body]), dir), label).rejects.toBeInstanceOf(BackupError);
      await expect(stat(dir), label).rejects.toThrow();
    }
    await expect(stat(path.join(work, 'evil.txt'))).rejects.toThrow();
    await expect(stat('/evil.txt')).rejects.toThrow();
    expect((await readdir(path.join(work, 'hostile')).catch(() => [])).length).toBe(0);
  });
});
