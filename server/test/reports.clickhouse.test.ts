// The report integration tests (reports.test.ts, reports-dashboard.test.ts) once more, with the facts on ClickHouse: the
// chdb engine embedded in this process through the production adapter (ADOPS_WAREHOUSE=clickhouse).
import { againOnClickHouse } from './helpers.js';

await againOnClickHouse(async () => {
  await import('./reports.test.js');
  await import('./reports-dashboard.test.js');
});
