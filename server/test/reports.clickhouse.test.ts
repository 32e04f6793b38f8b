// The report integration tests (reports.test.ts) once more, with the facts on ClickHouse: the
// chdb engine embedded in this process through the production adapter (ADOPS_WAREHOUSE=clickhouse).
import { againOnClickHouse } from './helpers.js';

await againOnClickHouse(() => import('./reports.test.js'));
