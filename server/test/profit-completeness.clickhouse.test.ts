// Rentabilidad's completeness (profit-completeness.test.ts) once more with the facts on
// ClickHouse: the chdb engine embedded in this process through the production adapter.
import { againOnClickHouse } from './helpers.js';

await againOnClickHouse(() => import('./profit-completeness.test.js'));
