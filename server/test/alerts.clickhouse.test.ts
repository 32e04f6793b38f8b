// Alertas' rules once more with the facts on ClickHouse (chdb embedded): the referrer and IP
// burst queries and the zone and profit figures they read answer the same on both engines.
import { againOnClickHouse } from './helpers.js';

await againOnClickHouse(() => import('./alerts.test.js'));
