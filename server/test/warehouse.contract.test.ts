// The warehouse contract on the embedded engine (DuckDB), with its rollup on (as it runs) and
// off (every aggregate from the stored rows), and the proof that the rollup is never a second
// truth: after random imports that replace rows, every aggregate answers what the rows answer.
import { openDuckDbWarehouse } from '../src/warehouse/duckdb/index.js';
import { describeSameAnswers, describeWarehouseContract } from './warehouse-contract.js';

describeWarehouseContract('DuckDB', () => openDuckDbWarehouse(':memory:'));
describeWarehouseContract('DuckDB without its rollup', () => openDuckDbWarehouse(':memory:', { rollup: false }));

describeSameAnswers(
  'the rollup answers what the stored rows answer',
  () => openDuckDbWarehouse(':memory:'),
  () => openDuckDbWarehouse(':memory:', { rollup: false }),
);
