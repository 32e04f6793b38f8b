// CSV exports of the referrers report and the live log (SPEC §3 CSV rows, §9): BOM, comma,
// date as 'YYYY-MM-DD HH:mm' on the screen's clock; the log adds keyword, ip and country.
import { formatDateTime, referrersCsvName, toCsv, type CsvColumn, type ReferrerLogRecord, type ReferrerRow, type Ymd } from '@adops/core';

const REPORT_COLUMNS: CsvColumn<'date' | 'zone_id' | 'source' | 'referrer'>[] = [
  { key: 'date', header: 'date' },
  { key: 'zone_id', header: 'zone_id' },
  { key: 'source', header: 'source' },
  { key: 'referrer', header: 'referrer' },
];

const LOG_COLUMNS: CsvColumn<'date' | 'zone_id' | 'source' | 'referrer' | 'keyword' | 'ip' | 'country'>[] = [
  ...REPORT_COLUMNS,
  { key: 'keyword', header: 'keyword' },
  { key: 'ip', header: 'ip' },
  { key: 'country', header: 'country' },
];

type ReportLike = Pick<ReferrerRow, 'zone_id' | 'parent_domain' | 'referrer' | 'seen_at'>;
type LogLike = Pick<ReferrerLogRecord, 'parent_domain' | 'referrer' | 'seen_at' | 'keyword' | 'ip' | 'country'> & { zone_id: string | number };

export function referrersCsv(rows: readonly ReportLike[], tz: string): string {
  return toCsv(
    REPORT_COLUMNS,
    rows.map((r) => ({ date: formatDateTime(r.seen_at, tz), zone_id: r.zone_id, source: r.parent_domain, referrer: r.referrer })),
    { bom: true, separator: ',' },
  );
}

export function logsCsv(rows: readonly LogLike[], tz: string): string {
  return toCsv(
    LOG_COLUMNS,
    rows.map((r) => ({
      date: formatDateTime(r.seen_at, tz),
      zone_id: r.zone_id,
      source: r.parent_domain,
      referrer: r.referrer,
      keyword: r.keyword,
      ip: r.ip,
      country: r.country,
    })),
    { bom: true, separator: ',' },
  );
}

export { referrersCsvName };

/** The live log's file: 'referrers_logs-{start}_to_{end}.csv' (SPEC names only the report's). */
export function logsCsvName(start: Ymd, end: Ymd): string {
  return referrersCsvName(start, end).replace(/^referrers-/, 'referrers_logs-');
}
