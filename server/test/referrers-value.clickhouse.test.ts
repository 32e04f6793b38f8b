// 'Valor' on the log and the live stream (referrers-value.test.ts) once more, with the facts on
// ClickHouse: the chdb engine embedded in this process through the production adapter.
import { againOnClickHouse } from './helpers.js';

await againOnClickHouse(() => import('./referrers-value.test.js'));
