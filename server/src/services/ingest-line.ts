// One NDJSON ingest line checked against IngestReferrerEvent without zod's generic machinery for
// the common shape (every field absent, null or a string within its limit): the batch's hot
// path. A field that needs more (a number, a date, an event_id or attribution value) is checked
// by its own schema from IngestReferrerEvent; anything that fails goes to the whole schema, so a
// refused line always gets zod's own first issue (its message and path) — the same answer.
import { IngestReferrerEvent, REFERRER_LIMITS } from '@adops/core';
import type { z } from 'zod';

export type ParsedIngestLine = z.output<typeof IngestReferrerEvent>;

const SHAPE = IngestReferrerEvent.shape;
const ZONE_ID = /^[\w.:-]{1,64}$/;

/** Plain nullable strings and their limits (IngestReferrerEvent's `z.string().max(n).nullish()`). */
const TEXT_FIELDS = [
  ['referrer', REFERRER_LIMITS.referrer],
  ['keyword', REFERRER_LIMITS.keyword],
  ['parent_domain', REFERRER_LIMITS.domain],
  ['ip', 64],
  ['country', 8],
  ['user_agent', REFERRER_LIMITS.userAgent],
] as const;
/** Fields whose non-null values their own schema checks (and may transform). */
const SCHEMA_FIELDS = ['seen_at', 'event_id', 'campaign_id', 'adset_id', 'ad_id', 'placement'] as const;

/** The line's event as IngestReferrerEvent parses it: `{ success: true, data }`, or its first issue. */
export function parseIngestLine(value: Record<string, unknown>): { success: true; data: ParsedIngestLine } | { success: false; error: z.ZodError } {
  const fast = fastParse(value);
  return fast === undefined ? IngestReferrerEvent.safeParse(value) : { success: true, data: fast };
}

/** The parsed event when every field passes here, else undefined (the whole schema decides). */
function fastParse(value: Record<string, unknown>): ParsedIngestLine | undefined {
  const zone = value.zone_id;
  if (typeof zone !== 'string') return undefined;
  const zone_id = zone.trim();
  if (!ZONE_ID.test(zone_id)) return undefined;
  const out: Record<string, unknown> = { zone_id };
  for (const [field, max] of TEXT_FIELDS) {
    const v = value[field];
    if (v === undefined) continue;
    if (v !== null && (typeof v !== 'string' || v.length > max)) return undefined;
    out[field] = v;
  }
  for (const field of SCHEMA_FIELDS) {
    const v = value[field];
    if (v === undefined) continue;
    if (v === null) {
      out[field] = null;
      continue;
    }
    const parsed = SHAPE[field].safeParse(v);
    if (!parsed.success) return undefined;
    out[field] = parsed.data;
  }
  return out as ParsedIngestLine;
}
