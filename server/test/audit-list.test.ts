// The audit trail read back (GET /api/admin/audit): filters, pages, sorts and exports it, bad input
// is a 4xx {detail} in Spanish, and no entry holds a secret. That every admin change writes its
// entry is audit.test.ts.
import { beforeAll, describe, expect, test } from 'vitest';
import type { Api, AuditEntry } from '@adops/core';
import type { TestServer } from './helpers.js';
import { auditServer } from './audit-fixture.js';

let s: TestServer;
let admin: Api & { token: string };
let adminId: string;

const fixture = auditServer();
beforeAll(() => {
  ({ server: s, admin, adminId } = fixture);
});

/** Every entry, oldest first. */
const all = async (): Promise<AuditEntry[]> => (await admin.audit.list({ sort: 'at:asc', page_size: 500 })).rows;

const newUser = async (over: Record<string, unknown> = {}) => {
  const email = `u${Math.random().toString(36).slice(2, 10)}@example.com`;
  return admin.admin.createUser({ first_name: 'Ana', last_name: 'Gómez', email, password: 'una-clave-larga-1', ...over });
};

describe('GET /api/admin/audit', () => {
  const get = (query: string, token: string | null = admin.token) =>
    s.fetch(`/api/admin/audit${query}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

  test('admins only: 401 without a session, 403 "No autorizado" for staff', async () => {
    expect((await get('', null)).status).toBe(401);
    const u = await newUser();
    const staff = await s.as(u.email, 'una-clave-larga-1');
    const res = await get('', staff.token);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ detail: 'No autorizado' });
  });

  test('newest first, paged with counts; a page past the last answers the last; at:asc turns it round', async () => {
    const total = (await all()).length;
    const first = await admin.audit.list({ page_size: 3 });
    expect(first).toMatchObject({ total_rows: total, page: 1, page_size: 3, page_count: Math.ceil(total / 3), sort: null, totals: {} });
    const ats = first.rows.map((r) => r.at);
    expect([...ats].sort().reverse()).toEqual(ats);
    const second = await admin.audit.list({ page_size: 3, page: 2 });
    expect(second.rows[0].at <= first.rows[2].at).toBe(true);
    expect(second.rows.map((r) => r.id)).not.toContain(first.rows[0].id);
    const beyond = await admin.audit.list({ page_size: 3, page: 10_000 });
    expect(beyond.page).toBe(beyond.page_count);
    expect(beyond.rows.length).toBeGreaterThan(0);
    const oldest = await admin.audit.list({ page_size: 1, sort: 'at:asc' });
    expect(oldest.rows[0]).toMatchObject({ actor_type: 'system', action: 'user.create' });
  });

  test('filters: actor (id, e-mail part, system), action or its prefix, target, free text, day range', async () => {
    // Entries of several users of this file's own (the routes' cases write theirs in audit.test.ts).
    for (let i = 0; i < 3; i++) await newUser();
    const u = await newUser({ first_name: 'Filtrable' });
    const byId = await admin.audit.list({ actor: adminId, action: 'user.create', target_id: u.id });
    expect(byId.rows).toHaveLength(1);
    expect((await admin.audit.list({ actor: 'ADMIN@test', target_id: u.id })).total_rows).toBe(1);
    expect((await admin.audit.list({ actor: 'system' })).rows.every((r) => r.actor_type === 'system')).toBe(true);
    const users = await admin.audit.list({ action: 'user', page_size: 500 });
    expect(users.rows.length).toBeGreaterThan(3);
    expect(users.rows.every((r) => r.action.startsWith('user.'))).toBe(true);
    expect((await admin.audit.list({ target_kind: 'publisher_token', page_size: 500 })).rows.every((r) => r.target_kind === 'publisher_token')).toBe(
      true,
    );
    expect((await admin.audit.list({ q: 'filtrable' })).rows.map((r) => r.target_id)).toEqual([u.id]);
    const today = new Date().toISOString().slice(0, 10);
    expect((await admin.audit.list({ since: today, until: today, target_id: u.id })).total_rows).toBe(1);
    expect((await admin.audit.list({ until: '2020-01-01' })).total_rows).toBe(0);
    expect((await admin.audit.list({ since: new Date(Date.now() + 60_000).toISOString() })).total_rows).toBe(0);
  });

  test('format=csv streams every matching entry with the export columns; ndjson one entry a line', async () => {
    const matching = (await admin.audit.list({ action: 'user', page_size: 500 })).total_rows;
    const res = await get('?action=user&format=csv&page_size=1');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(/auditoria\.csv/);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString('utf8');
    const lines = text.trim().split('\n');
    expect(lines[0]).toBe('at,actor,actor_id,ip,action,target_kind,target_id,target_label,before,after,request_id');
    expect(lines).toHaveLength(matching + 1);
    expect(text).not.toMatch(/scrypt\$|una-clave-larga/);
    const nd = await get('?action=user.create&format=ndjson');
    const rows = (await nd.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.every((r) => r.action === 'user.create')).toBe(true);
    expect(rows.length).toBe((await admin.audit.list({ action: 'user.create', page_size: 500 })).total_rows);
  });

  test.each([
    ['?since=2025-13-40', /^Desde: debe ser una fecha AAAA-MM-DD o un instante ISO 8601$/],
    ['?until=ayer', /^Hasta: debe ser una fecha/],
    ['?since=2025-03-02&until=2025-03-01', /^La fecha de inicio debe ser anterior o igual a la de fin$/],
    ['?page_size=501', /Filas por página: debe ser como máximo 500/],
    ['?page=0', /Página: debe ser al menos 1/],
    ['?sort=actor', /columna de orden no válida/],
    ['?format=xml', /^Formato: debe ser json, csv o ndjson$/],
    ["?action=user'%20OR%201=1", /^Acción: solo letras minúsculas/],
    [`?q=${'x'.repeat(201)}`, /^Búsqueda: /],
    [`?actor=${'a'.repeat(255)}`, /^Usuario: /],
    ['?actor=a&actor=b', /^Usuario: /],
    ['?target_kind=USER', /^Tipo de objeto: solo letras minúsculas/],
  ])('%s is a 400 with a Spanish detail, and the trail is unchanged', async (query, detail) => {
    const before = (await all()).length;
    const res = await get(query);
    expect(res.status).toBe(400);
    expect((await res.json()).detail).toMatch(detail);
    expect((await all()).length).toBe(before);
  });

  test('hostile text in filters matches nothing and breaks nothing', async () => {
    for (const text of ["' OR 1=1 --", '%', '_', '\\', '<script>', '🦤']) {
      const res = await get(`?q=${encodeURIComponent(text)}&actor=${encodeURIComponent(text)}`);
      expect(res.status).toBe(200);
      expect((await res.json()).total_rows).toBe(0);
    }
  });
});

describe('redaction', () => {
  test('secrets never enter an entry: passwords, hashes, tokens, TOTP secrets and recovery codes are hidden; names, times and counts stay', async () => {
    const { redact } = await import('../src/services/audit.js');
    expect(
      redact({
        password: 'x',
        password_hash: 'scrypt$…',
        token: 't',
        token_sealed: 's',
        totp_secret: 'JBSW',
        recovery_codes: ['a', 'b'],
        accessToken: 'jwt',
        api_key: 'k',
        keyword: 'seguros',
        image_hash: 'abc',
        password_changed_at: '2025-01-01',
        totp_enabled: true,
        sessions_ended: 2,
        nested: [{ secret: 'x', name: 'n\u0000' }],
      }),
    ).toEqual({
      password: '[oculto]',
      password_hash: '[oculto]',
      token: '[oculto]',
      token_sealed: '[oculto]',
      totp_secret: '[oculto]',
      recovery_codes: '[oculto]',
      accessToken: '[oculto]',
      api_key: '[oculto]',
      keyword: 'seguros',
      image_hash: 'abc',
      password_changed_at: '2025-01-01',
      totp_enabled: true,
      sessions_ended: 2,
      nested: [{ secret: '[oculto]', name: 'n' }],
    });
  });
});
