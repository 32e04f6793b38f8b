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

/** What a field's check answers when the value does not pass (the whole schema decides). */
const FAIL = Symbol('fail');

/** IngestReferrerEvent's `z.string().max(n).nullish()`. */
function text(v: unknown, max: number): string | null | undefined | typeof FAIL {
  if (v === undefined || v === null) return v;
  return typeof v === 'string' && v.length <= max ? v : FAIL;
}

/** A field whose non-null values its own schema checks (and may transform). */
function bySchema(field: 'seen_at' | 'event_id' | 'campaign_id' | 'adset_id' | 'ad_id' | 'placement', v: unknown): unknown {
  if (v === undefined || v === null) return v;
  const parsed = SHAPE[field].safeParse(v);
  return parsed.success ? parsed.data : FAIL;
}

/** The line's event as IngestReferrerEvent parses it: `{ success: true, data }`, or its first issue. */
export function parseIngestLine(value: Record<string, unknown>): { success: true; data: ParsedIngestLine } | { success: false; error: z.ZodError } {
  const fast = fastParse(value);
  return fast === undefined ? IngestReferrerEvent.safeParse(value) : { success: true, data: fast };
}

/**
 * The parsed event when every field passes here, else undefined (the whole schema decides): the
 * line's object itself when no field's value changed, or its fields written out one by one into
 * one object of a fixed shape (an absent field is undefined, as zod's absent key reads). Either
 * way, only IngestReferrerEvent's keys are read from it.
 */
function fastParse(value: Record<string, unknown>): ParsedIngestLine | undefined {
  const zone = value.zone_id;
  if (typeof zone !== 'string') return undefined;
  const zone_id = zone.trim();
  if (!ZONE_ID.test(zone_id)) return undefined;
  const referrer = text(value.referrer, REFERRER_LIMITS.referrer);
  const keyword = text(value.keyword, REFERRER_LIMITS.keyword);
  const parent_domain = text(value.parent_domain, REFERRER_LIMITS.domain);
  const ip = text(value.ip, 64);
  const country = text(value.country, 8);
  const user_agent = text(value.user_agent, REFERRER_LIMITS.userAgent);
  if (referrer === FAIL || keyword === FAIL || parent_domain === FAIL || ip === FAIL || country === FAIL || user_agent === FAIL) return undefined;
  const seen_at = bySchema('seen_at', value.seen_at);
  const event_id = bySchema('event_id', value.event_id);
  const campaign_id = bySchema('campaign_id', value.campaign_id);
  const adset_id = bySchema('adset_id', value.adset_id);
  const ad_id = bySchema('ad_id', value.ad_id);
  const placement = bySchema('placement', value.placement);
  if (seen_at === FAIL || event_id === FAIL || campaign_id === FAIL || adset_id === FAIL || ad_id === FAIL || placement === FAIL) return undefined;
  // Nothing changed (the common line): the line's own object is the event (its other keys are never read).
  if (
    zone_id === zone &&
    seen_at === value.seen_at &&
    event_id === value.event_id &&
    campaign_id === value.campaign_id &&
    adset_id === value.adset_id &&
    ad_id === value.ad_id &&
    placement === value.placement
  )
    return value as ParsedIngestLine;
  return {
    zone_id,
    referrer,
    keyword,
    parent_domain,
    ip,
    country,
    seen_at,
    user_agent,
    event_id,
    campaign_id,
    adset_id,
    ad_id,
    placement,
  } as ParsedIngestLine;
}
