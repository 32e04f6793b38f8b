// The live referrers log's list (SPEC §4): new events prepended once by key, polled pages
// merged ahead of what is shown, newest first, capped at 5,000 records.

export interface LiveRecord {
  id?: string | number;
  zone_id: string | number;
  parent_domain: string | null;
  referrer: string | null;
  seen_at: string;
  keyword: string | null;
  ip: string | null;
  country: string | null;
  /** Why the event was flagged as a bot or spam (only with include_bots); null or absent: human. */
  reason?: string | null;
  /** 'Valor': the zone's revenue per visit that day, as the server computed it (null: unknown). */
  value?: number | null;
  /** The zone's TQ that day (null: unknown). */
  tq?: number | null;
}

export const LIVE_CAP = 5000;
export const POLL_INTERVAL_MS = 5000;

type Keyed = Pick<LiveRecord, 'zone_id' | 'referrer' | 'parent_domain' | 'keyword' | 'ip' | 'country' | 'seen_at'>;

/**
 * The identity of an event: zone, referrer, source (parent_domain), keyword, ip, country and
 * seen_at. Missing and empty fields are alike; seen_at compares as an instant when it parses,
 * so the stream's and the poller's spellings of the same time match.
 */
export function recordKey(r: Keyed): string {
  const text = (v: unknown) => (v == null ? '' : String(v));
  const ms = Date.parse(text(r.seen_at));
  const seen = Number.isNaN(ms) ? text(r.seen_at) : String(ms);
  return JSON.stringify([text(r.zone_id), text(r.referrer), text(r.parent_domain), text(r.keyword), text(r.ip), text(r.country), seen]);
}

/**
 * Prepends incoming records (in arrival order, so the latest ends up first) whose key is not
 * already listed, then caps the list. Returns the same array when nothing was added.
 */
export function prependNew<T extends Keyed>(list: readonly T[], incoming: T | readonly T[], cap = LIVE_CAP): T[] {
  const batch = Array.isArray(incoming) ? (incoming as readonly T[]) : [incoming as T];
  const seen = new Set(list.map(recordKey));
  const added: T[] = [];
  for (const record of batch) {
    const key = recordKey(record);
    if (seen.has(key)) continue;
    seen.add(key);
    added.unshift(record);
  }
  if (added.length === 0 && list.length <= cap) return list as T[];
  return [...added, ...list].slice(0, cap);
}

/** A polled page (newest first) ahead of the existing list, duplicates by key removed, capped. */
export function mergePolled<T extends Keyed>(existing: readonly T[], fetched: readonly T[], cap = LIVE_CAP): T[] {
  const seen = new Set<string>();
  const merged: T[] = [];
  for (const record of [...fetched, ...existing]) {
    const key = recordKey(record);
    if (seen.has(key)) continue;
    seen.add(key);
    merged.push(record);
    if (merged.length >= cap) break;
  }
  return merged;
}

/** One SSE message's data as a record, or null when it is not a JSON object with a zone and a time. */
export function parseLiveMessage(data: string): LiveRecord | null {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const r = value as Record<string, unknown>;
  const zoneOk = typeof r.zone_id === 'string' || typeof r.zone_id === 'number';
  if (!zoneOk || typeof r.seen_at !== 'string') return null;
  const textOrNull = (v: unknown) => (typeof v === 'string' ? v : v == null ? null : String(v));
  return {
    ...(r.id !== undefined && (typeof r.id === 'string' || typeof r.id === 'number') ? { id: r.id } : {}),
    zone_id: r.zone_id as string | number,
    parent_domain: textOrNull(r.parent_domain),
    referrer: textOrNull(r.referrer),
    seen_at: r.seen_at,
    keyword: textOrNull(r.keyword),
    ip: textOrNull(r.ip),
    country: textOrNull(r.country),
    ...(typeof r.reason === 'string' ? { reason: r.reason } : {}),
    ...('value' in r ? { value: typeof r.value === 'number' && Number.isFinite(r.value) ? r.value : null } : {}),
    ...('tq' in r ? { tq: typeof r.tq === 'number' && Number.isFinite(r.tq) ? r.tq : null } : {}),
  };
}
