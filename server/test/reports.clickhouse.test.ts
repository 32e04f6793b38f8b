// The report integration tests (reports.test.ts) once more, with the facts on ClickHouse: the
// chdb engine embedded in this process through the production adapter (ADOPS_WAREHOUSE=clickhouse).
import { expect, test } from 'vitest';
import { startTestServer, useClickHouseWarehouse } from './helpers.js';

useClickHouseWarehouse(true);

test('test servers of this file keep their facts on ClickHouse', async () => {
  const s = await startTestServer();
  try {
    expect(s.app.services.warehouse.engine).toBe('clickhouse');
  } finally {
    await s.close();
  }
});

await import('./reports.test.js');
