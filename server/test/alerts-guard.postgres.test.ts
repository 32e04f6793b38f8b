// The profit guard (alerts-guard.test.ts) once more with the entities on PostgreSQL (a throwaway
// cluster for this file): the same pauses, daily cap, records, audit entries and undo.
import { afterAll } from 'vitest';
import { usePostgresStore } from './helpers.js';
import { startPgCluster } from './pg-cluster.js';

const cluster = await startPgCluster();
usePostgresStore(cluster);
// Registered before the imported file's hooks: "after" hooks run as a stack, so this one runs last.
afterAll(() => cluster.stop());
await import('./alerts-guard.test.js');
