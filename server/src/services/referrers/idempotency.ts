// Idempotent ingest: an event may carry a key (the client's event_id, or one derived from its
// batch's Idempotency-Key); a keyed event whose key was stored in the last 7 days, or that
// repeats a key earlier in its commit, is a duplicate: never stored, never published, counted
// in the answer. Keys live in the warehouse (they outlast a restart) and expire with retention.
import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { IdempotencyKey, REFERRER_LIMITS } from '@adops/core';
import { DomainError } from '../../domain-errors.js';
import type { LiveBus } from '../../live/types.js';
import { EventKeyConflict, eventsOf, type ReferrerEvent, type ReferrerWarehouse, type WritePart } from '../../warehouse/index.js';

const DAY_MS = 86_400_000;
/** How long a stored key makes a resent event a duplicate. */
export const IDEMPOTENCY_MS = REFERRER_LIMITS.idempotencyDays * DAY_MS;
/** Tries of a commit whose keys were stored before (each try drops those events): a resend, then another writer's race. */
const KEY_CONFLICT_TRIES = 3;

/**
 * Idempotency keys: a batch event's event_id ('e:'), a beacon's ('h:': the public beacon can
 * never claim, and so suppress, a batch event's id), and a batch sent with an Idempotency-Key
 * ('b:' + SHA-256 of the key and the body: a resend of the same batch matches; a different body
 * under a used key is another batch — its events stored, none silently dropped).
 */
export const eventKeys = {
  batchEvent: (eventId: string) => `e:${eventId}`,
  beacon: (eventId: string) => `h:${eventId}`,
  /**
   * A batch's key: SHA-256 of the Idempotency-Key, a newline and the body's UTF-8. `raw`, the
   * bytes the body was decoded from, is hashed as is when it is valid UTF-8 (the same bytes,
   * without encoding the text again); otherwise the decoded text is (its U+FFFD replacements).
   */
  batch: (idempotencyKey: string, body: string, raw?: Uint8Array) =>
    `b:${createHash('sha256')
      .update(idempotencyKey)
      .update('\n')
      .update(raw !== undefined && isUtf8(raw) ? raw : body)
      .digest('base64url')}`,
};

/**
 * An event's own key rides on it under a symbol: JSON (the live bus) and the log never see it.
 * A batch's key is its request's, written with the request's events as their tag (one, however
 * many events): stored once, and finding it makes every one of them a duplicate.
 */
export const EVENT_KEY = Symbol('eventKey');
export type KeyedEvent = ReferrerEvent & { [EVENT_KEY]?: string };
export const keyOf = (e: ReferrerEvent): string | undefined => (e as KeyedEvent)[EVENT_KEY];

/** The keys of one request's events: its batch key (the Idempotency-Key's), if any, and whether some event has a key of its own. */
export interface PartKeys {
  batchKey: string | undefined;
  ownKeys: boolean;
}

/** One request's events in a commit, and their keys (none when untagged). */
export type Part = WritePart<PartKeys>;

/** Every key of the parts, each once: their batch keys and their events' own. */
function keysOf(parts: readonly Part[]): string[] {
  const keys = new Set<string>();
  for (const part of parts) {
    if (part.tag?.batchKey !== undefined) keys.add(part.tag.batchKey);
    if (part.tag?.ownKeys)
      for (const e of part.events) {
        const own = keyOf(e);
        if (own !== undefined) keys.add(own);
      }
  }
  return [...keys];
}

/**
 * The parts of a commit but the repeats: a part whose batch key an earlier part sent too (the
 * same batch twice at once: the first counts), and an event whose own key an earlier event had.
 */
function firstOfEachKey(parts: readonly Part[]): readonly Part[] {
  let repeated = false;
  const batches = new Set<string>();
  const keys = new Set<string>();
  for (const part of parts) {
    const batchKey = part.tag?.batchKey;
    if (batchKey !== undefined) {
      if (batches.has(batchKey)) repeated = true;
      else batches.add(batchKey);
    }
    if (!part.tag?.ownKeys) continue;
    for (const e of part.events) {
      const key = keyOf(e);
      if (key === undefined) continue;
      if (keys.has(key)) repeated = true;
      else keys.add(key);
    }
  }
  if (!repeated) return parts;
  const takenBatches = new Set<string>();
  const taken = new Set<string>();
  const kept: Part[] = [];
  for (const part of parts) {
    const batchKey = part.tag?.batchKey;
    if (batchKey !== undefined) {
      if (takenBatches.has(batchKey)) continue;
      takenBatches.add(batchKey);
    }
    if (!part.tag?.ownKeys) {
      kept.push(part);
      continue;
    }
    const events = part.events.filter((e) => {
      const key = keyOf(e);
      if (key === undefined) return true;
      if (taken.has(key)) return false;
      taken.add(key);
      return true;
    });
    kept.push({ ...part, events });
  }
  return kept;
}

/** The Idempotency-Key header's value (undefined when absent or empty); 400 when it is not a valid key. */
export function parseIdempotencyKey(header: string | undefined): string | undefined {
  if (header === undefined || header === '') return undefined;
  const parsed = IdempotencyKey.safeParse(header);
  if (!parsed.success) throw new DomainError('invalid', parsed.error.issues[0]?.message ?? 'Idempotency-Key no válida');
  return parsed.data;
}

/**
 * One group-commit batch: ids reserved on the bus (unique across instances), then stored with
 * the events' keys. A key repeated within the batch keeps its first event (a batch key, its
 * first request); when the warehouse finds keys stored within the window (EventKeyConflict:
 * nothing stored), those events are left out, the reservation given back, and the rest tried
 * again. Answers the events stored; the others keep id 0.
 */
export async function commitKeyed(
  parts: readonly Part[],
  bus: Pick<LiveBus<ReferrerEvent>, 'reserve' | 'cancel'>,
  warehouse: Pick<ReferrerWarehouse, 'append'>,
): Promise<readonly ReferrerEvent[]> {
  const since = Date.now() - IDEMPOTENCY_MS;
  let kept = firstOfEachKey(parts);
  for (let tries = 1; ; tries++) {
    const fresh = eventsOf(kept);
    if (fresh.length === 0) return fresh;
    const first = await bus.reserve(fresh.length);
    for (let i = 0; i < fresh.length; i++) (fresh[i] as { id: number }).id = first + i;
    const keys = keysOf(kept);
    try {
      await warehouse.append(fresh, keys.length > 0 ? { keys, since } : undefined);
      return fresh;
    } catch (e) {
      for (const event of fresh) (event as { id: number }).id = 0;
      bus.cancel(first, fresh.length).catch(() => {}); // otherwise given up at its deadline
      if (!(e instanceof EventKeyConflict) || tries >= KEY_CONFLICT_TRIES) throw e;
      const stored = e.keys;
      kept = kept
        .filter((part) => part.tag?.batchKey === undefined || !stored.has(part.tag.batchKey))
        .map((part) => (part.tag?.ownKeys ? { ...part, events: part.events.filter((event) => !stored.has(keyOf(event) ?? '')) } : part));
    }
  }
}
