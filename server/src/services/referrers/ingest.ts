// Referrer events as they arrive: one is validated and completed (zone, referrer host or given
// source, address, country, time, Meta attribution), an NDJSON batch is read line by line and
// refused whole, naming the line, when one line is wrong.
import { isIP } from 'node:net';
import { fieldLabel, REFERRER_LIMITS } from '@adops/core';
import { zodDetail } from '@adops/core';
import { DomainError } from '../../domain-errors.js';
import type { ReferrerEvent, ZoneOwner } from '../../warehouse/index.js';
import { ipv4Number } from '../bots.js';
import { parseIngestLine } from '../ingest-line.js';
import { EVENT_KEY, eventKeys, type KeyedEvent } from './idempotency.js';

const FUTURE_SLACK_MS = 5 * 60_000;
const OLDEST_EVENT_MS = Date.UTC(2000, 0, 1);
const ZONE_ID = /^[\w.:-]{1,64}$/;
const HOST_LABELS = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/** An event before it has an id and owners. */
export type NewReferrerEvent = Omit<ReferrerEvent, 'id' | 'publisher' | 'advertiser'>;

/** A rejected event field; the ingest route prefixes the line number. */
export class EventError extends Error {}

/** A field's refusal as every other refusal reads: its label, then what is wrong ("País: …"). */
const refused = (field: string, predicate: string) => new EventError(`${fieldLabel([field])}: ${predicate}`);
const CONTROL = 'no puede contener caracteres de control';

/** A host name from a domain or an http(s) URL, lower-cased; null when it is neither. */
export function hostOf(value: string): string | null {
  const v = value.trim();
  if (v === '') return null;
  if (/^https?:\/\//i.test(v)) {
    try {
      const host = new URL(v).hostname.toLowerCase();
      return host.startsWith('[') || HOST_LABELS.test(host) ? host : null;
    } catch {
      return null;
    }
  }
  const host = v.toLowerCase().replace(/\.$/, '');
  return HOST_LABELS.test(host) ? host : null;
}

/**
 * An http(s) URL whose host is plain ASCII labels, the last starting with a letter (not an IPv4
 * form), none punycode, right before its path, query, fragment or end: URL's hostname for it is
 * the host lower-cased, so it is read without parsing the URL (the common referrer).
 */
const PLAIN_URL_HOST = /^https?:\/\/((?:[a-z0-9-]+\.)*[a-z][a-z0-9-]*)(?:[/?#]|$)/i;
const PUNYCODE_LABEL = /(?:^|\.)xn--/i;

/** The referrer URL's host (http/https only). */
function referrerHost(referrer: string | null): string | null {
  if (!referrer) return null;
  const plain = PLAIN_URL_HOST.exec(referrer);
  if (plain !== null && !PUNYCODE_LABEL.test(plain[1])) return plain[1].toLowerCase();
  if (!/^https?:\/\//i.test(referrer)) return null;
  try {
    const host = new URL(referrer).hostname.toLowerCase();
    return host || null;
  } catch {
    return null;
  }
}

/** An instant as ISO text; the last one is remembered (a batch's events mostly share their arrival time). */
let lastIso = { ms: Number.NaN, iso: '' };
function isoOf(ms: number): string {
  if (ms !== lastIso.ms) lastIso = { ms, iso: new Date(ms).toISOString() };
  return lastIso.iso;
}

/** IPv4-mapped IPv6 written as IPv4; null when not an address. */
export function normalizeIp(ip: string | null | undefined): string | null {
  if (!ip) return null;
  const t = ip.trim();
  // A plain dotted quad (nearly every hit, and the beacon normalises each address twice) is
  // valid as written: no regular expression, no isIP.
  if (ipv4Number(t) !== -1) return t;
  const v = t.includes(':') ? t.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1') : t;
  return isIP(v) ? v : null;
}

export const blankToNull = (v: string | null | undefined): string | null => (v == null || v.trim() === '' ? null : v);

function noNul(field: string, v: string | null): string | null {
  if (v?.includes('\u0000')) throw refused(field, CONTROL);
  return v;
}

/** What normalizeEvent reads. */
interface EventInput {
  zone_id: string;
  referrer?: string | null;
  keyword?: string | null;
  parent_domain?: string | null;
  ip?: string | null;
  country?: string | null;
  seen_at?: string | null;
  campaign_id?: string | null;
  adset_id?: string | null;
  ad_id?: string | null;
  placement?: string | null;
}

/**
 * Validates and completes one event: parent_domain is the given source (a host or URL) or else
 * the referrer URL's host; seen_at defaults to the arrival time.
 */
export function normalizeEvent(input: EventInput, arrivedAt: number): NewReferrerEvent;
/** The same, stamped as accept() stamps it (id 0, its zone's owner from `ownerOf`) in one object. */
export function normalizeEvent(input: EventInput, arrivedAt: number, ownerOf: (zoneId: string) => ZoneOwner): ReferrerEvent;
export function normalizeEvent(input: EventInput, arrivedAt: number, ownerOf?: (zoneId: string) => ZoneOwner): NewReferrerEvent | ReferrerEvent {
  const zone_id = input.zone_id.trim();
  if (!ZONE_ID.test(zone_id)) throw refused('zone_id', 'debe tener de 1 a 64 letras, dígitos o . _ : -');
  const referrer = noNul('referrer', blankToNull(input.referrer));
  if (referrer !== null && referrer.length > REFERRER_LIMITS.referrer)
    throw refused('referrer', `no puede superar ${REFERRER_LIMITS.referrer} caracteres`);
  const keyword = noNul('keyword', blankToNull(input.keyword));
  if (keyword !== null && keyword.length > REFERRER_LIMITS.keyword)
    throw refused('keyword', `no puede superar ${REFERRER_LIMITS.keyword} caracteres`);
  let parent_domain: string | null = null;
  const source = blankToNull(input.parent_domain);
  if (source !== null) {
    parent_domain = hostOf(source);
    if (parent_domain === null) throw refused('parent_domain', 'debe ser un dominio o una URL http(s)');
  } else parent_domain = referrerHost(referrer);
  let ip: string | null = null;
  if (blankToNull(input.ip) !== null) {
    ip = normalizeIp(input.ip);
    if (ip === null) throw refused('ip', 'no es una dirección IPv4 o IPv6 válida');
  }
  let country: string | null = null;
  if (blankToNull(input.country) !== null) {
    const c = input.country!.trim().toUpperCase();
    if (!/^[A-Z][A-Z0-9]$/.test(c)) throw refused('country', 'debe ser un código de país de 2 letras');
    country = c;
  }
  let seen_ms = arrivedAt;
  if (input.seen_at) {
    seen_ms = Date.parse(input.seen_at);
    if (Number.isNaN(seen_ms)) throw refused('seen_at', 'no es una fecha válida');
    if (seen_ms > arrivedAt + FUTURE_SLACK_MS) throw refused('seen_at', 'está en el futuro');
    if (seen_ms < OLDEST_EVENT_MS) throw refused('seen_at', 'es anterior a 2000');
  }
  const seen_at = isoOf(seen_ms);
  const campaign_id = attributionValue('campaign_id', input.campaign_id);
  const adset_id = attributionValue('adset_id', input.adset_id);
  const ad_id = attributionValue('ad_id', input.ad_id);
  const placement = attributionValue('placement', input.placement);
  if (ownerOf === undefined)
    return {
      zone_id,
      parent_domain,
      referrer,
      keyword,
      ip,
      country,
      seen_ms,
      seen_at,
      is_bot: false,
      reason: null,
      campaign_id,
      adset_id,
      ad_id,
      placement,
    };
  const owner = ownerOf(zone_id);
  // accept()'s `{ id: 0, ...event, publisher, advertiser }`, key for key
  return {
    id: 0,
    zone_id,
    parent_domain,
    referrer,
    keyword,
    ip,
    country,
    seen_ms,
    seen_at,
    is_bot: false,
    reason: null,
    campaign_id,
    adset_id,
    ad_id,
    placement,
    publisher: owner.publisher,
    advertiser: owner.advertiser,
  };
}

/**
 * An attribution value as stored: trimmed; blank or a Meta macro left unreplaced ('{{ad.id}}',
 * as a preview of the ad sends it) is absent; longer than the limit or with control characters, refused.
 */
function attributionValue(field: string, value: string | null | undefined): string | null {
  const v = value?.trim();
  if (!v || /^\{\{[^{}]*\}\}$/.test(v)) return null;
  if (v.length > REFERRER_LIMITS.attribution) throw refused(field, `no puede superar ${REFERRER_LIMITS.attribution} caracteres`);
  if (/\p{Cc}/u.test(v)) throw refused(field, CONTROL);
  return v;
}

/**
 * An NDJSON batch's events, each stamped (as accept() stamps it) with its zone's owner and, when
 * it has an event_id, its key (`ownKeys`: some event has one); `flag` marks invalid traffic.
 */
export function readNdjsonBatch(
  body: string,
  arrivedAt: number,
  ownerOf: (zoneId: string) => ZoneOwner,
  flag?: (event: ReferrerEvent, userAgent: string | null | undefined, sourceSent: boolean) => void,
): { events: KeyedEvent[]; ownKeys: boolean } {
  // Each event is made stamped (as accept() stamps it), its key on it.
  const events: KeyedEvent[] = [];
  let ownKeys = false;
  let lineNo = 0;
  let start = 0;
  while (start <= body.length) {
    let end = body.indexOf('\n', start);
    if (end === -1) end = body.length;
    const line = body.slice(start, end).trim();
    start = end + 1;
    lineNo++;
    if (line === '') continue;
    if (events.length >= REFERRER_LIMITS.batchEvents) throw new DomainError('too_large', `El lote supera ${REFERRER_LIMITS.batchEvents} eventos`);
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new DomainError('invalid', `línea ${lineNo}: JSON mal formado`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new DomainError('invalid', `línea ${lineNo}: se esperaba un objeto JSON`);
    const parsed = parseIngestLine(value as Record<string, unknown>);
    if (!parsed.success) throw new DomainError('invalid', `línea ${lineNo}: ${zodDetail(parsed.error)}`);
    try {
      const event: KeyedEvent = normalizeEvent(parsed.data, arrivedAt, ownerOf);
      flag?.(event, parsed.data.user_agent, blankToNull(parsed.data.parent_domain) !== null);
      const eventId = parsed.data.event_id;
      if (eventId != null) {
        event[EVENT_KEY] = eventKeys.batchEvent(eventId);
        ownKeys = true;
      }
      events.push(event);
    } catch (e) {
      if (e instanceof EventError) throw new DomainError('invalid', `línea ${lineNo}: ${e.message}`);
      throw e;
    }
  }
  if (events.length === 0) throw new DomainError('invalid', 'El lote no contiene eventos');
  return { events, ownKeys };
}
