// Retried ingest (referrers-idempotency.test.ts) once more, with the facts on ClickHouse: the
// chdb engine embedded in this process (ADOPS_WAREHOUSE=clickhouse), keys found after a restart
// in its referrer_event_key table.
import { againOnClickHouse } from './helpers.js';

await againOnClickHouse(() => import('./referrers-idempotency.test.js'));
