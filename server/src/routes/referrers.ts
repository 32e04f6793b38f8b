// Referrer traffic routes: the public beacon (a token bucket per IP), NDJSON batch ingest (ingest
// key or admin), the report, the raw log, its live stream (SSE), the filter lists, the IVT table
// and the admins' referrer-spam list.
import type Router from '@koa/router';
import { contract, REFERRER_LIMITS } from '@adops/core';
import { actorOf, bind, type Ctx, type RouteParsed, type SessionState, type HttpServices } from '../http.js';
import type { StreamRequest } from '../live/sse.js';
import { httpError } from '../errors.js';
import { BEACON_HEADERS, PIXEL, takeHit } from '../beacon.js';
import { streamFilter, parseIdempotencyKey } from '../services/referrers.js';
import type { ReferrerEvent } from '../warehouse/index.js';
import { sendExport } from '../http-export.js';

/** The request body's bytes (UTF-8 text), refused with 413 past `limit` bytes. */
function readBody(ctx: Ctx, limit: number): Promise<Buffer> {
  const tooLarge = () => {
    ctx.set('Connection', 'close');
    return httpError(413, `El lote supera ${Math.round(limit / (1024 * 1024))} MB`);
  };
  const declared = Number(ctx.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge());
  const encoding = ctx.get('content-encoding');
  if (encoding && encoding.toLowerCase() !== 'identity') return Promise.reject(httpError(415, 'Codificación no soportada'));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const req = ctx.req;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        req.resume(); // drain and discard the rest
        reject(tooLarge());
      } else chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    };
    const onError = () => {
      cleanup();
      reject(httpError(400, 'Petición interrumpida'));
    };
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onError);
  });
}

/**
 * What a live referrer stream asks of the hub: its filter, resume point (the Last-Event-ID
 * header before the query's) and session check. For the Koa route and the lean path (lean-stream.ts).
 */
export async function referrerStream(
  s: HttpServices,
  q: RouteParsed<typeof contract.referrers.stream>,
  lastEventIdHeader: string,
  user: Pick<SessionState, 'id' | 'session_id'>,
): Promise<StreamRequest<ReferrerEvent>> {
  const referrers = s.referrers;
  const filter = streamFilter(q, s.config.tz);
  const header = lastEventIdHeader.trim();
  const fromHeader = /^\d{1,15}$/.test(header) ? Number(header) : undefined;
  let lastEventId = fromHeader ?? q.lastEventId;
  // A resume point past every id handed out belongs to a reset store: start live (when the
  // live backend cannot say, the resume point is trusted).
  const latest = lastEventId === undefined ? undefined : await referrers.latestId().catch(() => undefined);
  if (lastEventId !== undefined && latest !== undefined && lastEventId > latest) lastEventId = undefined;
  // The stream keeps the session's ids, not the request's context.
  const { session_id, id } = user;
  return {
    match: referrers.matcher(filter),
    lastEventId,
    backfill: referrers.backfill,
    alive: () => s.auth.alive(session_id, id),
    aliveKey: `${id}\n${session_id}`,
    take: () => s.streams.take(id),
  };
}

export function referrerRoutes(router: Router, s: HttpServices): void {
  const r = contract.referrers;
  const referrers = s.referrers;

  // SPEC's paths end in '/'; the same calls without it are accepted too.
  for (const route of [r.report, { ...r.report, path: '/api/referrers' }])
    bind(router, s.guards, route, ({ sort, page, page_size, format, csv, ...filter }, ctx) => {
      const request = { sort, page, page_size, format, csv };
      if (format === 'json') return referrers.report(filter, request);
      return sendExport(ctx, { format, csv }, referrers.reportExport(filter, request));
    });
  bind(router, s.guards, r.comparison, (filter) => referrers.comparison(filter));
  for (const route of [r.logs, { ...r.logs, path: '/api/referrers_logs' }])
    bind(router, s.guards, route, ({ sort, page, page_size, format, csv, ...filter }, ctx) => {
      const request = { sort, page, page_size, format, csv };
      if (format === 'json') return referrers.logs(filter, request);
      return sendExport(ctx, { format, csv }, referrers.logsExport(filter, request));
    });
  bind(router, s.guards, r.filters, () => referrers.filterOptions());
  bind(router, s.guards, r.ivt, ({ sort, page, page_size, format, csv, ...filter }, ctx) => {
    const request = { sort, page, page_size, format, csv };
    if (format === 'json') return referrers.ivt(filter, request);
    return sendExport(ctx, { format, csv }, referrers.ivtExport(filter, request));
  });

  bind(router, s.guards, r.spamList, () => s.spam.view());
  bind(router, s.guards, r.updateSpamList, async (change, ctx) => {
    const { list, before, after } = await s.spam.change(change);
    await s.audit.record(actorOf(ctx), {
      action: 'referrer_spam.update',
      target: { kind: 'referrer_spam', label: [...change.add.map((d) => `+${d}`), ...change.remove.map((d) => `-${d}`)].join(' ') },
      before,
      after,
    });
    return list;
  });

  bind(router, s.guards, r.stream, async (q, ctx) => {
    referrers.hub.open(ctx, await referrerStream(s, q, ctx.get('last-event-id'), ctx.state.user!));
  });

  bind(router, s.guards, r.ingest, async (_input, ctx) => {
    const idempotencyKey = parseIdempotencyKey(ctx.get('idempotency-key'));
    const raw = await readBody(ctx, REFERRER_LIMITS.batchBytes);
    const result = await referrers.ingestNdjson(raw.toString('utf8'), Date.now(), idempotencyKey, raw);
    // An admin's import is audited; the ingest key's batches are the machine feed (not audited).
    if (ctx.state.user)
      await s.audit.record(actorOf(ctx), {
        action: 'referrers.import',
        target: { kind: 'referrers', label: `${result.accepted} eventos` },
        after: { accepted: result.accepted, duplicates: result.duplicates, first_id: result.first_id, last_id: result.last_id },
      });
    return result;
  });

  // The beacon answers an image or nothing, so it is bound by hand (bind would force 204). A plain
  // GET is answered by its lean path (beacon.ts) before the app; HEAD and /api/hit/ come here.
  router.get('/api/hit', async (raw) => {
    const ctx = raw as unknown as Ctx;
    const { gif } = await takeHit(s, {
      ip: ctx.ip,
      socketAddress: ctx.req.socket.remoteAddress,
      query: ctx.query,
      header: (name) => ctx.get(name),
    });
    ctx.set(BEACON_HEADERS);
    if (gif) {
      ctx.type = 'image/gif';
      ctx.body = PIXEL;
    } else ctx.status = 204;
  });
}
