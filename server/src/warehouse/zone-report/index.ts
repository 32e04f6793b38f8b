// The DuckDB implementation of ZoneReportWarehouse: one query per file, bound parameters only.
import type { ReportFilters } from '@adops/core';
import type { Db } from '../db.js';
import type { SummaryDimension, ZoneReportWarehouse } from './types.js';
import { ensureZoneReportSchema } from './schema.js';
import { countRows } from './count-rows.js';
import { getDailySums } from './get-daily-sums.js';
import { getZoneRowsJson } from './get-zone-rows.js';
import { getSummarySums } from './get-summary-sums.js';
import { getMonthlyRevenue } from './get-monthly-revenue.js';
import { getMonthlyMargin } from './get-monthly-margin.js';
import { getGeoAndSourceOptions } from './get-geo-source-options.js';
import { getDimensionValues } from './get-dimension-values.js';
import { getPublisherDataJson } from './get-publisher-data.js';
import { getTopEarners } from './get-top-earners.js';
import { beginZoneReportImport } from './import.js';

export * from './types.js';

export class DuckDbZoneReportWarehouse implements ZoneReportWarehouse {
  constructor(private readonly db: Db) {}

  ensureSchema = () => ensureZoneReportSchema(this.db);
  countRows = () => countRows(this.db);
  dailySums = (f: ReportFilters) => getDailySums(this.db, f);
  zoneRowsJson = (f: ReportFilters, limit: number, fromDate?: string) => getZoneRowsJson(this.db, f, limit, fromDate);
  summarySums = (f: ReportFilters, by: SummaryDimension) => getSummarySums(this.db, f, by);
  topEarners = (f: ReportFilters, limit: number) => getTopEarners(this.db, f, limit);
  monthlyRevenue = (f: ReportFilters, by: SummaryDimension) => getMonthlyRevenue(this.db, f, by);
  monthlyMargin = (f: ReportFilters) => getMonthlyMargin(this.db, f);
  geoAndSourceOptions = (f: ReportFilters) => getGeoAndSourceOptions(this.db, f);
  dimensionValues = () => getDimensionValues(this.db);
  publisherDataJson = (publisher: string, start: string, end: string, limit: number) =>
    getPublisherDataJson(this.db, publisher, start, end, limit);
  beginImport = () => beginZoneReportImport(this.db);
}
