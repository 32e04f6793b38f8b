// Rentabilidad's completeness (profit-completeness.test.ts) once more with the entities on
// PostgreSQL (a throwaway cluster for this file): the sync and finality records live in its
// settings, as every instance reads them.
import { afterAll } from 'vitest';
import { usePostgresStore } from './helpers.js';
import { startPgCluster } from './pg-cluster.js';

const cluster = await startPgCluster();
usePostgresStore(cluster);
// Registered before the imported file's hooks: "after" hooks run as a stack, so this one runs last.
afterAll(() => cluster.stop());
await import('./profit-completeness.test.js');
