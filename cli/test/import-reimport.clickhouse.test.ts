// Re-imports counting once (import-reimport.test.ts) again with the facts on ClickHouse: the
// lines' keys are found in its referrer_event_key table.
import { againOnClickHouse } from '../../server/test/helpers.js';

await againOnClickHouse(() => import('./import-reimport.test.js'));
