// An engine's refusal to go past its memory limit (ADOPS_WAREHOUSE_MEMORY_LIMIT), whichever engine:
// a read that needs more than the limit is answered 503 in words (a shorter range, or later), not
// as an internal error — found at 100 M rows on the embedded ClickHouse, where a year's Top Zones
// needs more than the default 128 MB.

/**
 * DuckDB's refusal to go past its memory_limit: an "Out of Memory Error", or as an appender words
 * it when its flush gets no block ("Failed to append: could not allocate block …", seen when a
 * 1 M-row upload's rows were flushed beside another large read: it was answered 500).
 */
export const isOutOfMemory = (e: unknown): e is Error =>
  e instanceof Error && /^(Out of Memory Error|Failed to append: could not allocate block)/.test(e.message);

/** ClickHouse's MEMORY_LIMIT_EXCEEDED (code 241), as @clickhouse/client reports it over HTTP and from chdb. */
const isClickHouseMemoryLimit = (e: unknown) => {
  const err = e as { code?: unknown; type?: unknown } | null;
  return e instanceof Error && (err?.code === '241' || err?.type === 'MEMORY_LIMIT_EXCEEDED');
};

export const isWarehouseMemoryRefusal = (e: unknown): e is Error => isOutOfMemory(e) || isClickHouseMemoryLimit(e);

/** What the user is told (503, Retry-After). */
export const MEMORY_REFUSAL_DETAIL =
  'El almacén de datos no tiene memoria suficiente para esta consulta ahora mismo. Prueba con un rango de fechas más corto o vuelve a intentarlo en unos minutos';
export const MEMORY_REFUSAL_RETRY_SECONDS = 30;
