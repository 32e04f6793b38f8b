// The audit trail over HTTP (audit.test.ts, audit-list.test.ts) once more with the entities on PostgreSQL (a
// throwaway cluster for this file): the same entries, filters, pages and exports.
import { afterAll } from 'vitest';
import { usePostgresStore } from './helpers.js';
import { startPgCluster } from './pg-cluster.js';

const cluster = await startPgCluster();
usePostgresStore(cluster);
// Registered before the imported file's hooks: "after" hooks run as a stack, so this one runs last.
afterAll(() => cluster.stop());
await import('./audit.test.js');
await import('./audit-list.test.js');
