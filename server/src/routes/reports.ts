// Revenue reporting routes: Dashboard, Ad Report, Api Explorer, Demand, Finance, the
// publisher-data URL (publisher token), zone-report ingest (ingest key or admin) and the
// admins' revenue-share settings. Every table answers a page (format=json) or streams every
// matching row (format=csv|ndjson).
import type Router from '@koa/router';
import { contract, type TableRequest } from '@adops/core';
import { actorOf, bind, type Ctx, type HttpServices } from '../http.js';
import { httpError, statusOf } from '../errors.js';
import { auditTarget } from '../services/audit.js';
import { publisherKey } from '../store/types.js';
import { sendExport } from '../http-export.js';
import type { TableExport } from '../tables.js';

/** Splits a table query into its filters and its table fields. */
function split<Q extends TableRequest>(q: Q): [Omit<Q, keyof TableRequest>, TableRequest] {
  const { sort, page, page_size, format, csv, ...filters } = q;
  return [filters, { sort, page, page_size, format, csv }];
}

/** Answers the JSON page, or streams the export the format asks for. */
async function answer<P, Row>(ctx: Ctx, request: TableRequest, page: () => Promise<P>, exp: () => TableExport<Row> | Promise<TableExport<Row>>) {
  if (request.format === 'json') return page();
  await sendExport(ctx, { format: request.format, csv: request.csv }, await exp());
}

export function reportRoutes(router: Router, s: HttpServices): void {
  const { reports, ingest, shares } = s;
  const c = contract;

  bind(router, s.guards, c.dashboard.rawOptions, () => reports.rawOptions());
  bind(router, s.guards, c.dashboard.overview, (f) => reports.overview(f));
  bind(router, s.guards, c.dashboard.aggregated, (q, ctx) => {
    const [f, t] = split(q);
    return answer(
      ctx,
      t,
      () => reports.dailyTable(f, t),
      () => reports.dailyExport(f, t),
    );
  });
  bind(router, s.guards, c.dashboard.deltas, (f) => reports.deltas(f));
  bind(router, s.guards, c.dashboard.comparison, (f) => reports.comparison(f));
  bind(router, s.guards, c.dashboard.top, ({ limit, ...f }) => reports.dashboardTops(f, limit));

  bind(router, s.guards, c.adReport.zoneDetails, (q, ctx) => {
    const [f, t] = split(q);
    return answer(
      ctx,
      t,
      () => reports.zoneDetails(f, t),
      () => reports.zoneExport(f, t, 'zones'),
    );
  });
  bind(router, s.guards, c.adReport.explorer, (q, ctx) => {
    const [f, t] = split(q);
    return answer(
      ctx,
      t,
      () => reports.zoneTable(f, t),
      () => reports.zoneExport(f, t, 'explorer'),
    );
  });
  bind(router, s.guards, c.adReport.revenueCards, (f) => reports.revenueCards(f));
  for (const [route, name] of [
    [c.adReport.publisherSummary, 'publisher'],
    [c.adReport.advertiserSummary, 'advertiser'],
  ] as const)
    bind(router, s.guards, route, (q, ctx) => {
      const [f, t] = split(q);
      return answer(
        ctx,
        t,
        () => reports.summaryTable(f, name, t),
        () => reports.summaryExport(f, name, t),
      );
    });

  bind(router, s.guards, c.demand.advertiserRevenue, async ({ format, csv, ...f }, ctx) => {
    if (format === 'json') return reports.advertiserRevenue(f);
    await sendExport(ctx, { format, csv }, await reports.demandExport(f));
  });

  for (const [route, name] of [
    [c.finance.advertisers, 'advertiser'],
    [c.finance.publishers, 'publisher'],
  ] as const)
    bind(router, s.guards, route, (q, ctx) => {
      const [f, t] = split(q);
      return answer(
        ctx,
        t,
        () => reports.financeTable(f, name, t),
        () => reports.financeExport(f, name, t),
      );
    });
  bind(router, s.guards, c.finance.margin, async ({ format, csv, ...f }, ctx) => {
    if (format === 'json') return reports.financeMargin(f);
    await sendExport(ctx, { format, csv }, await reports.financeMarginExport(f));
  });
  bind(router, s.guards, c.finance.domains, () => reports.domains());

  bind(router, s.guards, c.publisher.data, async (q, ctx) => {
    const [{ token: inUrl, start_date, end_date }, t] = split(q);
    // The token in the Authorization header (kept out of URLs and histories) or in the URL.
    const header = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization'))?.[1];
    if (header && inUrl && header !== inUrl) throw httpError(400, 'Envía un solo token: en la cabecera Authorization o en la URL, no dos distintos');
    const publisher = await s.tokens.authorize(header ?? inUrl, ctx.ip);
    ctx.set('Cache-Control', 'no-store');
    return answer(
      ctx,
      t,
      () => reports.publisherData(publisher, start_date, end_date, t),
      () => reports.publisherExport(publisher, start_date, end_date, t),
    );
  });

  bind(router, s.guards, c.ingest.zoneReport, async ({ report }, ctx) => {
    const length = ctx.get('content-length');
    try {
      const result = await ingest.ingestBody(
        ctx.req,
        {
          contentType: ctx.get('content-type'),
          contentEncoding: ctx.get('content-encoding') || undefined,
          contentLength: /^\d+$/.test(length) ? Number(length) : undefined,
        },
        { report },
      );
      const { inserted, replaced, rejected_total, duplicates_total, days } = result;
      await s.audit.record(actorOf(ctx), {
        action: 'zone_report.import',
        target: { kind: 'zone_report', label: `${inserted} insertadas, ${replaced} reemplazadas, ${rejected_total} rechazadas` },
        after: { inserted, replaced, rejected_total, duplicates_total, report: report ?? null, days },
      });
      return result;
    } catch (e) {
      // The rest of a refused body is never read: close the connection instead.
      if (statusOf(e) === 413) ctx.set('Connection', 'close');
      throw e;
    }
  });

  bind(router, s.guards, c.publishers.list, () => shares.list());
  bind(router, s.guards, c.publishers.set, async ({ name, revenue_share }, ctx) => {
    const before = (await shares.list()).find((p) => publisherKey(p.name) === publisherKey(name));
    const after = await shares.set(name, revenue_share);
    await s.audit.record(actorOf(ctx), { action: 'publisher.revenue_share', target: auditTarget.publisher(after.name), before, after });
    return after;
  });
}
