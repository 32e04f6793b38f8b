// Bot and spam traffic apart (referrers-bots.test.ts) once more, with the facts on ClickHouse:
// the chdb engine embedded in this process (migration 4's columns, its filter, rollup and IVT SQL).
import { againOnClickHouse } from './helpers.js';

await againOnClickHouse(() => import('./referrers-bots.test.js'));
