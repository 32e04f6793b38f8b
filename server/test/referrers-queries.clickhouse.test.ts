// The referrer report and log integration tests (referrers-queries.test.ts) once more, with the
// facts on ClickHouse: the chdb engine embedded in this process (ADOPS_WAREHOUSE=clickhouse).
import { againOnClickHouse } from './helpers.js';

await againOnClickHouse(() => import('./referrers-queries.test.js'));
