// Revenue reporting routes: Dashboard, Ad Report, Api Explorer, Demand, Finance, the
// publisher-data URL (publisher token), zone-report ingest (ingest key or admin) and the
// admins' revenue-share settings.
import type Router from '@koa/router';
import { contract, toCsv, roundMetric, type PublisherDataRow } from '@adops/core';
import { bind, type Ctx } from '../http.js';
import { httpError } from '../errors.js';
import type { AppServices } from '../app.js';
import { zoneReportServices, type JsonText } from '../services/reports.js';

const PUBLISHER_CSV_COLUMNS = [
  { key: 'date', header: 'date' },
  { key: 'zone_id', header: 'zone_id' },
  { key: 'geo', header: 'geo' },
  { key: 'impressions', header: 'impressions' },
  { key: 'clicks', header: 'clicks' },
  { key: 'ctr', header: 'ctr' },
  { key: 'p_revenue', header: 'p_revenue' },
  { key: 'p_cpm', header: 'p_cpm' },
] as const satisfies ReadonlyArray<{ key: keyof PublisherDataRow; header: string }>;

/** Sends JSON the warehouse already serialised. */
function sendJson(ctx: Ctx, json: JsonText): void {
  ctx.type = 'application/json';
  ctx.body = json.text;
}

export function reportRoutes(router: Router, s: AppServices): void {
  const { reports, ingest, shares } = zoneReportServices(s);
  const c = contract;

  bind(router, s.guards, c.dashboard.rawOptions, () => reports.rawOptions());
  bind(router, s.guards, c.dashboard.overview, (f) => reports.overview(f));
  bind(router, s.guards, c.dashboard.aggregated, (f) => reports.aggregated(f));
  bind(router, s.guards, c.dashboard.deltas, (f) => reports.deltas(f));
  bind(router, s.guards, c.dashboard.top, ({ limit, ...f }) => reports.dashboardTops(f, limit));

  bind(router, s.guards, c.adReport.zoneDetails, async ({ limit, ...f }, ctx) => sendJson(ctx, await reports.zoneDetails(f, limit)));
  bind(router, s.guards, c.adReport.publisherSummary, (f) => reports.summary(f, 'publisher'));
  bind(router, s.guards, c.adReport.advertiserSummary, (f) => reports.summary(f, 'advertiser'));
  bind(router, s.guards, c.adReport.explorer, async ({ limit, ...f }, ctx) => sendJson(ctx, await reports.explorer(f, limit)));

  bind(router, s.guards, c.demand.advertiserRevenue, (f) => reports.advertiserRevenue(f));

  bind(router, s.guards, c.finance.advertisers, (f) => reports.finance(f, 'advertiser'));
  bind(router, s.guards, c.finance.publishers, (f) => reports.finance(f, 'publisher'));
  bind(router, s.guards, c.finance.margin, (f) => reports.financeMargin(f));
  bind(router, s.guards, c.finance.domains, () => reports.domains());

  // One handler serves JSON and CSV (contract: publisher.data / publisher.dataCsv).
  bind(router, s.guards, c.publisher.data, async ({ token, start_date, end_date, format }, ctx) => {
    const publisher = token ? await s.tokens.resolve(token) : null;
    if (!publisher) throw httpError(401, 'Token de publisher no válido');
    const rows = await reports.publisherData(publisher, start_date, end_date);
    ctx.set('Cache-Control', 'no-store');
    if (format !== 'csv') return sendJson(ctx, rows);
    ctx.type = 'text/csv; charset=utf-8';
    ctx.attachment(`publisher-data-${start_date}_to_${end_date}.csv`);
    const shown = (JSON.parse(rows.text) as PublisherDataRow[]).map((r) => {
      return {
        ...r,
        ctr: roundMetric('ctr', r.ctr),
        p_revenue: roundMetric('p_revenue', r.p_revenue, { decimals: 4 }),
        p_cpm: roundMetric('p_cpm', r.p_cpm),
      };
    });
    return toCsv(PUBLISHER_CSV_COLUMNS, shown, { bom: true });
  });

  bind(router, s.guards, c.ingest.zoneReport, async (_input, ctx) => {
    const length = ctx.get('content-length');
    try {
      return await ingest.ingestBody(ctx.req, {
        contentType: ctx.get('content-type'),
        contentEncoding: ctx.get('content-encoding') || undefined,
        contentLength: /^\d+$/.test(length) ? Number(length) : undefined,
      });
    } catch (e) {
      // The rest of a refused body is never read: close the connection instead.
      if ((e as { status?: number }).status === 413) ctx.set('Connection', 'close');
      throw e;
    }
  });

  bind(router, s.guards, c.publishers.list, () => shares.list());
  bind(router, s.guards, c.publishers.set, ({ name, revenue_share }) => shares.set(name, revenue_share));
}
