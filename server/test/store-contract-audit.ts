// The audit trail's part of the entity-store contract: append and query only, filters, order,
// paging, hostile text; run by describeStoreContract on every engine.
import { expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { AuditRecord, EntityStore } from '../src/store/types.js';

export const auditEntry = (over: Partial<AuditRecord> = {}): AuditRecord => ({
  id: randomUUID(),
  at: new Date().toISOString(),
  actor_type: 'user',
  actor_id: 'u-1',
  actor_email: 'ana@example.com',
  ip: '10.0.0.1',
  action: 'user.create',
  target_kind: 'user',
  target_id: 'u-2',
  target_label: 'dos@example.com',
  before: null,
  after: { email: 'dos@example.com', is_admin: false },
  request_id: 'req-1',
  ...over,
});

export function describeAuditContract(fresh: () => Promise<{ store: EntityStore; open: () => Promise<EntityStore> }>, shared: boolean): void {
  test('offers append and query only: no way to change or remove an entry', async () => {
    const { store } = await fresh();
    expect(Object.keys(store.audit).sort()).toEqual(['append', 'query']);
  });

  test('an appended entry reads back as it was, newest first, and is on disk for a store opened afterwards', async () => {
    const { store, open } = await fresh();
    const first = auditEntry({ at: '2025-01-01T10:00:00.000Z', before: { nested: { list: [1, 'dos', null] } } });
    const second = auditEntry({ at: '2025-01-01T11:00:00.000Z', actor_type: 'system', actor_id: null, actor_email: null, ip: null });
    await store.audit.append(first);
    await store.audit.append(second);
    expect(await store.audit.query({}, 'desc', 0, 10)).toEqual({ rows: [second, first], total: 2 });
    expect(await store.audit.query({}, 'asc', 0, 10)).toEqual({ rows: [first, second], total: 2 });
    const again = await open();
    expect((await again.audit.query({}, 'desc', 0, 10)).rows).toEqual([second, first]);
  });

  test('entries of the same instant keep the order they were appended in', async () => {
    const { store } = await fresh();
    const at = '2025-02-02T00:00:00.000Z';
    const entries = Array.from({ length: 5 }, (_, i) => auditEntry({ at, target_id: `t${i}` }));
    for (const e of entries) await store.audit.append(e);
    expect((await store.audit.query({}, 'desc', 0, 10)).rows.map((e) => e.target_id)).toEqual(['t4', 't3', 't2', 't1', 't0']);
  });

  test('filters by actor, action (or its prefix), target, range and free text; pages with the total', async () => {
    const { store } = await fresh();
    const rows = [
      auditEntry({ at: '2025-03-01T09:00:00.000Z', actor_id: 'a1', actor_email: 'Ana@Example.com', action: 'user.create', target_id: 'x1' }),
      auditEntry({ at: '2025-03-02T09:00:00.000Z', actor_id: 'b2', actor_email: 'beto@example.com', action: 'user.delete', target_id: 'x1' }),
      auditEntry({
        at: '2025-03-03T09:00:00.000Z',
        actor_type: 'system',
        actor_id: null,
        actor_email: null,
        action: 'token.create',
        target_kind: 'publisher_token',
        target_id: 'p1',
        target_label: 'Diario Sur',
        after: { publisher_name: 'Diario Sur' },
      }),
      auditEntry({ at: '2025-03-04T09:00:00.000Z', action: 'user.created_elsewhere', target_id: 'x9' }),
    ];
    for (const r of rows) await store.audit.append(r);
    const ids = async (f: Parameters<EntityStore['audit']['query']>[0]) => (await store.audit.query(f, 'asc', 0, 10)).rows.map((r) => r.id);
    expect(await ids({ actor: 'a1' })).toEqual([rows[0].id]);
    expect(await ids({ actor: 'ana@EXAMPLE' })).toEqual([rows[0].id, rows[3].id]);
    expect(await ids({ actor: 'system' })).toEqual([rows[2].id]);
    expect(await ids({ action: 'user' })).toEqual([rows[0].id, rows[1].id, rows[3].id]);
    expect(await ids({ action: 'user.create' })).toEqual([rows[0].id]);
    expect(await ids({ action: 'user.creat' })).toEqual([]);
    expect(await ids({ target_kind: 'publisher_token' })).toEqual([rows[2].id]);
    expect(await ids({ target_id: 'x1' })).toEqual([rows[0].id, rows[1].id]);
    expect(await ids({ since: '2025-03-02T09:00:00.000Z', until: '2025-03-04T09:00:00.000Z' })).toEqual([rows[1].id, rows[2].id]);
    expect(await ids({ text: 'diario sur' })).toEqual([rows[2].id]);
    expect(await ids({ text: 'BETO' })).toEqual([rows[1].id]);
    expect(await ids({ action: 'user', actor: 'ana' })).toEqual([rows[0].id, rows[3].id]);
    expect(await store.audit.query({ action: 'user' }, 'desc', 1, 1)).toEqual({ rows: [rows[1]], total: 3 });
    expect(await store.audit.query({}, 'desc', 10, 5)).toEqual({ rows: [], total: 4 });
  });

  test('hostile text is kept as text and finds only itself', async () => {
    const { store } = await fresh();
    const hostile = ["' OR 1=1 --", '%', '_', '\\', 'Robert"); DROP TABLE audit_log;--', '🦤 ‮'];
    for (const [i, text] of hostile.entries())
      await store.audit.append(auditEntry({ target_id: `t${i}`, target_label: text, after: { [text]: text } }));
    for (const [i, text] of hostile.entries()) {
      const { rows } = await store.audit.query({ text }, 'asc', 0, 10);
      expect(rows.map((r) => r.target_id)).toContain(`t${i}`);
      expect(rows.find((r) => r.target_id === `t${i}`)?.after).toEqual({ [text]: text });
    }
    expect((await store.audit.query({ text: '%' }, 'asc', 0, 10)).rows.map((r) => r.target_id)).toEqual(['t1']);
    expect((await store.audit.query({ actor: "' OR 1=1 --" }, 'asc', 0, 10)).total).toBe(0);
    expect((await store.audit.query({ action: "x' OR 'a'='a" }, 'asc', 0, 10)).total).toBe(0);
    expect((await store.audit.query({}, 'asc', 0, 100)).total).toBe(hostile.length);
  });

  test('appends racing from several writers are all kept, each once', async () => {
    const { store, open } = await fresh();
    // Several API instances write to a shared engine; lowdb has one writer per data dir.
    const writers = shared ? [store, await open()] : [store];
    const entries = Array.from({ length: 20 }, (_, i) => auditEntry({ target_id: `r${i}` }));
    await Promise.all(entries.map((e, i) => writers[i % writers.length].audit.append(e)));
    const { rows, total } = await store.audit.query({}, 'asc', 0, 100);
    expect(total).toBe(20);
    expect(new Set(rows.map((r) => r.target_id))).toEqual(new Set(entries.map((e) => e.target_id)));
  });
}
