// Alertas live: every alert that fires (or fires again) or resolves, on whichever instance ran
// the evaluator, is published on the live backend's 'alerts' bus (this process, or Redis shared
// by every instance, with its own ids and keys) and streamed as SSE (GET /api/alerts/stream) to
// `adops tail --alerts`; each stream sees the rules its user's channels name (all when none).
import { jsonFigures, type AlertStreamEvent } from '@adops/core';
import type { LiveBackend, LiveBus } from '../live/index.js';
import { SseHub, type StreamContext } from '../live/sse.js';
import type { AlertChangeEvent } from './alert-views.js';

/** Events the bus keeps for a stream that resumes (Last-Event-ID). */
export const ALERT_RING_SIZE = 1000;

export interface AlertStreamOptions {
  heartbeatMs: number;
  aliveCheckMs: number;
}

export class AlertStream {
  readonly bus: LiveBus<AlertStreamEvent>;
  readonly hub: SseHub<AlertStreamEvent>;
  /** Publications under way (close waits for them). */
  private readonly publishing = new Set<Promise<void>>();

  constructor(
    live: Pick<LiveBackend, 'bus'>,
    private readonly log: (line: string) => void,
    options: AlertStreamOptions = { heartbeatMs: 15_000, aliveCheckMs: 3000 },
  ) {
    this.bus = live.bus<AlertStreamEvent>({ ringSize: ALERT_RING_SIZE, name: 'alerts' });
    this.hub = new SseHub<AlertStreamEvent>(this.bus, (e) => `id: ${e.id}\ndata: ${JSON.stringify(jsonFigures(e))}\n\n`, {
      heartbeatMs: options.heartbeatMs,
      maxBacklogEvents: ALERT_RING_SIZE,
      retryMs: 2000,
      maxReplay: ALERT_RING_SIZE,
      aliveCheckMs: options.aliveCheckMs,
    });
  }

  /** Joins the bus (with Redis: the shared id counter and the stream's recent events). */
  start(): Promise<void> {
    return this.bus.start(0);
  }

  /**
   * Hands an evaluation's changes to every instance's streams, in order, without making the
   * evaluator wait; the notices of an alert are its history's, not the stream's.
   */
  publish(changes: readonly AlertChangeEvent[]): void {
    if (changes.length === 0) return;
    const done = (async () => {
      const first = await this.bus.reserve(changes.length);
      const events = changes.map((c, i): AlertStreamEvent => ({ id: first + i, event: c.event, alert: { ...c.alert, deliveries: [] }, at: c.at }));
      await this.bus.publish(events);
    })()
      .catch((e: Error) => this.log(`alerts: changes not published live: ${e.message}`))
      .finally(() => this.publishing.delete(done));
    this.publishing.add(done);
  }

  /** The highest id handed out (a resume point past it belongs to another bus: start live). */
  latestId(): Promise<number> {
    return this.bus.latestId();
  }

  /** Streams to ctx (a Koa context, or a bare request and response) the events of `ruleIds` (null: every rule), after `lastEventId` when given. */
  open(
    ctx: StreamContext,
    request: { ruleIds: readonly string[] | null; lastEventId?: number; alive: () => Promise<boolean>; aliveKey: string; take?: () => () => void },
  ): void {
    const { ruleIds } = request;
    this.hub.open(ctx, {
      match: (e) => ruleIds === null || ruleIds.includes(e.alert.rule_id),
      lastEventId: request.lastEventId,
      alive: request.alive,
      aliveKey: request.aliveKey,
      take: request.take,
    });
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.publishing]);
    this.hub.closeAll();
    await this.bus.close();
  }
}
