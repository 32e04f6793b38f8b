// Retention: raw events older than the retention period go (their daily rollup stays), and
// idempotency keys past their window are forgotten.
import type { Config } from '../../config.js';
import type { ReferrerWarehouse, RetentionResult } from '../../warehouse/index.js';
import { IDEMPOTENCY_MS } from './idempotency.js';

const DAY_MS = 86_400_000;

/** Deletes raw events older than the retention period, keeping their daily rollup, and forgets expired idempotency keys. */
export async function runRetention(
  warehouse: Pick<ReferrerWarehouse, 'expireKeys' | 'rollUpBefore'>,
  config: Pick<Config, 'eventRetentionDays'>,
  log: (line: string) => void,
  now: number,
): Promise<RetentionResult> {
  const cutoff = now - config.eventRetentionDays * DAY_MS;
  try {
    await warehouse.expireKeys(now - IDEMPOTENCY_MS);
  } catch (e) {
    log(`referrers: expired event keys not removed: ${(e as Error).message}`);
  }
  try {
    const result = await warehouse.rollUpBefore(cutoff);
    if (result.deleted > 0) log(`referrers: retention removed ${result.deleted} raw events before ${new Date(cutoff).toISOString()}`);
    return result;
  } catch (e) {
    log(`referrers: retention failed: ${(e as Error).message}`);
    throw e;
  }
}
