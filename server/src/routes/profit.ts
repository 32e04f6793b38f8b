// Media buying area: Rentabilidad (table and exports), the Meta spend sync (admins) and the
// monthly exchange rates (read by anyone, kept by admins). Each change is audited.
import type Router from '@koa/router';
import { contract } from '@adops/core';
import { actorOf, bind, type HttpServices } from '../http.js';
import { spendTarget } from '../services/spend.js';
import { sendExport } from '../http-export.js';

export function profitRoutes(router: Router, s: HttpServices): void {
  const r = contract.profit;

  bind(router, s.guards, r.table, async ({ sort, page, page_size, format, csv, ...q }, ctx) => {
    const request = { sort, page, page_size, format, csv };
    if (format === 'json') return s.profit.table(q, request);
    await sendExport(ctx, { format, csv }, await s.profit.export(q, request));
  });

  bind(router, s.guards, r.syncSpend, async ({ start_date, end_date }, ctx) => {
    const { from, to } = start_date && end_date ? { from: start_date, to: end_date } : s.spend.lastDays(7);
    const result = await s.spend.sync(from, to);
    await s.audit.record(actorOf(ctx), { action: 'spend.sync', target: spendTarget(from, to), after: result });
    return result;
  });

  bind(router, s.guards, r.rates, () => s.profit.rates());

  bind(router, s.guards, r.setRates, async ({ rates }, ctx) => {
    const { before, after } = await s.profit.setRates(rates);
    await s.audit.record(actorOf(ctx), {
      action: 'exchange_rates.update',
      target: { kind: 'exchange_rates', id: after.currency, label: `Tipos de cambio a ${after.currency}` },
      before: { rates: before },
      after: { rates: after.rates },
    });
    return after;
  });
}
