// The cross-column money checks of zone-report imports (reports-ingest-money.test.ts) once more, with the facts on
// ClickHouse: its import stages rows in a table of its own, and a refused file must leave nothing there either.
import { againOnClickHouse } from './helpers.js';

await againOnClickHouse(() => import('./reports-ingest-money.test.js'));
