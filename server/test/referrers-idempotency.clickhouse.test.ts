// Retried ingest (referrers-idempotency.test.ts) once more, with the facts on ClickHouse: the
// chdb engine embedded in this process (ADOPS_WAREHOUSE=clickhouse), keys found after a restart
// in its referrer_event_key table.
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

await import('./referrers-idempotency.test.js');
