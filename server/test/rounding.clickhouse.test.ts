// The one-rounding-rule tests (rounding.test.ts) once more, with the facts on ClickHouse: the
// chdb engine embedded in this process through the production adapter.
import { againOnClickHouse } from './helpers.js';

await againOnClickHouse(() => import('./rounding.test.js'));
