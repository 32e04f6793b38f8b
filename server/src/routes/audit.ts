// The audit trail (admins only): a page of entries, or every matching entry as CSV / NDJSON.
import type Router from '@koa/router';
import { contract } from '@adops/core';
import { bind, type HttpServices } from '../http.js';
import { sendExport } from '../http-export.js';

export function auditRoutes(router: Router, s: HttpServices): void {
  bind(router, s.guards, contract.audit.list, ({ sort, page, page_size, format, csv, ...query }, ctx) => {
    const request = { sort, page, page_size, format, csv };
    ctx.set('Cache-Control', 'no-store');
    if (format === 'json') return s.audit.table(query, request);
    return sendExport(ctx, { format, csv }, s.audit.export(query, request));
  });
}
