// The audit tests' server (audit.test.ts writes entries through every admin route,
// audit-list.test.ts reads them back): the ingest key, five known publishers and the admin's id.
import { afterAll, beforeAll } from 'vitest';
import type { Api } from '@adops/core';
import { ADMIN, knownPublishers, startTestServer, type TestServer } from './helpers.js';

export const INGEST_KEY = 'audit-test-ingest-key-0123456789';

/** A test server for the audit tests, started before the file's tests and closed after them. */
export function auditServer(): { readonly server: TestServer; readonly admin: Api & { token: string }; readonly adminId: string } {
  const state = {} as { server: TestServer; admin: Api & { token: string }; adminId: string };
  beforeAll(async () => {
    state.server = await startTestServer({ ingestKey: INGEST_KEY });
    state.admin = await state.server.admin();
    await knownPublishers(state.admin, 'Diario Audit Uno', 'Diario Audit Dos', 'Diario Audit Tres', 'Diario Audit Cuatro', 'Diario Audit Cinco');
    state.adminId = (await state.admin.admin.listUsers()).find((u) => u.email === ADMIN.email)!.id;
  });
  afterAll(() => state.server?.close());
  return state;
}
