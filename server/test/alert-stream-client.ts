// A test's reader of GET /api/alerts/stream: the raw SSE over fetch with a session's Bearer token,
// parsed into AlertStreamEvent messages as they arrive.
import type { AlertStreamEvent } from '@adops/core';

export interface AlertFollower {
  status: number;
  events: AlertStreamEvent[];
  /** Resolves once `n` events arrived (rejects after `ms`). */
  waitFor(n: number, ms?: number): Promise<AlertStreamEvent[]>;
  close(): void;
}

export async function followAlerts(baseUrl: string, token: string, lastEventId?: number): Promise<AlertFollower> {
  const ac = new AbortController();
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (lastEventId !== undefined) headers['last-event-id'] = String(lastEventId);
  const res = await fetch(`${baseUrl}/api/alerts/stream`, { headers, signal: ac.signal });
  const events: AlertStreamEvent[] = [];
  if (res.ok && res.body) {
    const reader = res.body.getReader();
    const text = new TextDecoder();
    let buffer = '';
    void (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          buffer += text.decode(value, { stream: true });
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = frame
              .split('\n')
              .filter((l) => l.startsWith('data: '))
              .map((l) => l.slice(6))
              .join('\n');
            if (data) events.push(JSON.parse(data) as AlertStreamEvent);
          }
        }
      } catch {
        // aborted
      }
    })();
  }
  return {
    status: res.status,
    events,
    async waitFor(n, ms = 5000) {
      const until = Date.now() + ms;
      while (events.length < n) {
        if (Date.now() > until) throw new Error(`expected ${n} alert events, got ${events.length}: ${JSON.stringify(events)}`);
        await new Promise((r) => setTimeout(r, 10));
      }
      return events;
    },
    close: () => ac.abort(),
  };
}
