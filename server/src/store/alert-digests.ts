// How long the daily digest's records are kept, the same on every engine.

/** Digest records are kept this many days (the day's is what stops a second send). */
export const DIGESTS_KEPT_DAYS = 31;
export const digestsKeptFrom = (date: string): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) - DIGESTS_KEPT_DAYS * 86_400_000).toISOString().slice(0, 10);
