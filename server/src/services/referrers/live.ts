// How committed events reach live streams: each event's SSE frame (made once, shared by every
// client) and the bus as the hub sees it, each batch handed on once its zone values are loaded.
import type { ReferrerLogRecord } from '@adops/core';
import type { LiveBus } from '../../live/types.js';
import type { ReferrerEvent } from '../../warehouse/index.js';
import type { ZoneValues } from '../zone-values.js';

const frames = new WeakMap<ReferrerEvent, string>();
/** The event's SSE frame: `id:` and one ReferrerLogRecord as JSON, with its value (computed once, shared by every client). */
export function eventFrame(e: ReferrerEvent, values?: ZoneValues): string {
  let frame = frames.get(e);
  if (frame === undefined) {
    const worth = values ? values.peek(e.zone_id, e.seen_ms, e.is_bot) : { value: null, tq: null };
    const record: ReferrerLogRecord = {
      id: e.id,
      zone_id: e.zone_id,
      parent_domain: e.parent_domain,
      referrer: e.referrer,
      seen_at: e.seen_at,
      keyword: e.keyword,
      ip: e.ip,
      country: e.country,
      is_bot: e.is_bot,
      reason: e.reason,
      value: worth.value,
      tq: worth.tq,
    };
    frame = `id: ${e.id}\ndata: ${JSON.stringify(record)}\n\n`;
    frames.set(e, frame);
  }
  return frame;
}

/**
 * The bus as the SSE hub sees it: each published batch is handed on once the zone values of its
 * days are loaded (at once when they are), in publish order.
 */
export function valuedDelivery(bus: LiveBus<ReferrerEvent>, values: ZoneValues): Pick<LiveBus<ReferrerEvent>, 'subscribe' | 'replay'> {
  return {
    replay: (afterId, limit) => bus.replay(afterId, limit),
    subscribe: (listener) => {
      let queue: Promise<void> | undefined;
      let waiting = 0;
      return bus.subscribe((events) => {
        const ready = values.ready(eventInstants(events));
        if (ready === undefined && waiting === 0) return listener(events);
        waiting++;
        queue = (queue ?? Promise.resolve())
          .then(() => ready)
          .then(() => listener(events))
          .finally(() => {
            waiting--;
          });
      });
    },
  };
}

/** The zone and instant of each event (what its value is looked up by). */
function* eventInstants(events: readonly ReferrerEvent[]): Iterable<{ zone_id: string; ms: number }> {
  for (const e of events) yield { zone_id: e.zone_id, ms: e.seen_ms };
}
