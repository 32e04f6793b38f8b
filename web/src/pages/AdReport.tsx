// Ad Report (SPEC §2): Zone ID / Advertiser / Publisher / Geo / Source / presets / dates
// filters (the 7 days ending yesterday), the zone table 'Resumen diario por zona' with its
// CSV (adreport_zonas.csv, the page shown) and the 'Resumen publisher' / 'Resumen advertiser' tables.
import { useMemo, useState } from 'react';
import {
  AD_REPORT_COLUMNS,
  CSV_FILE_NAMES,
  DEFAULT_PAGE_SIZE,
  SCREEN_DEFAULT_PRESET,
  SCREEN_PRESETS,
  formatInt,
  totals as sumRows,
  type MetricColumn,
  type SummaryRow,
  type ZoneRow,
} from '@adops/core';
import { Card } from '../components/Card';
import { ErrorBanner } from '../components/ErrorBanner';
import { Loading, Reloading } from '../components/Loading';
import { ReportFilterBar, initialReportFilters, rangeProblem, toReportQuery, type ReportFilterValues } from '../components/ReportFilterBar';
import { ReportTable } from '../components/adreport/ReportTable';
import { useRawOptions, useSummary, useZoneDetails, type ReportQuery } from '../hooks/useReports';

const DEFAULT_PRESET = SCREEN_DEFAULT_PRESET.adReport;
const SUMMARY_PAGE_SIZE = 10;
const EMPTY = 'No hay datos para estos filtros.';

/** The zone table's metric columns after its six text columns. */
const METRIC_COLUMNS = AD_REPORT_COLUMNS.filter((c) => !['date', 'advertiser', 'publisher', 'zone_id', 'geo', 'source'].includes(c.key));
const PUBLISHER_COLUMNS: MetricColumn[] = [{ key: 'date', header: 'Date' }, { key: 'publisher', header: 'Publisher' }, ...METRIC_COLUMNS];
const ADVERTISER_COLUMNS: MetricColumn[] = [{ key: 'date', header: 'Date' }, { key: 'advertiser', header: 'Advertiser' }, ...METRIC_COLUMNS];

const zoneKey = (r: ZoneRow) => JSON.stringify([r.date, r.advertiser, r.publisher, r.zone_id, r.geo, r.source]);

export default function AdReport() {
  const [filters, setFilters] = useState<ReportFilterValues>(() => initialReportFilters(DEFAULT_PRESET));
  const problem = rangeProblem(filters);
  const query: ReportQuery = useMemo(() => (problem ? null : toReportQuery(filters)), [filters, problem]);

  const options = useRawOptions();
  const zones = useZoneDetails(query);
  const publishers = useSummary(query, 'publisher');
  const advertisers = useSummary(query, 'advertiser');

  // The three tables cover the same rows: the server's totals (every matching row) serve all.
  const totals = zones.data?.totals;
  const summaryTotals = (rows: readonly SummaryRow[]) => totals ?? sumRows(rows);

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-gray-900">Ad Report</h1>

      <ReportFilterBar
        value={filters}
        onChange={setFilters}
        onReset={() => setFilters(initialReportFilters(DEFAULT_PRESET))}
        presets={SCREEN_PRESETS.adReport}
        options={{
          advertisers: options.data?.advertisers,
          publishers: options.data?.publishers,
          geos: zones.data?.geoOptions ?? options.data?.geoOptions,
          sources: zones.data?.sourceOptions ?? options.data?.sourceOptions,
        }}
      />
      <ErrorBanner error={options.error} fallback="Error al cargar los filtros" />
      <ErrorBanner error={problem} />

      <Card title="Resumen diario por zona" actions={zones.loading && query ? <Reloading /> : null}>
        <ErrorBanner error={zones.error} fallback="Error al cargar el resumen por zona" />
        {!zones.data && zones.loading && query ? (
          <Loading />
        ) : (
          <ReportTable
            testId="zone-table"
            caption="Resumen diario por zona"
            rows={zones.data?.data ?? []}
            columns={AD_REPORT_COLUMNS}
            totals={totals}
            rowKey={zoneKey}
            pageSize={DEFAULT_PAGE_SIZE.adReport}
            csvFileName={CSV_FILE_NAMES.adReport}
            emptyText={EMPTY}
            notice={
              zones.data?.truncated ? (
                <p className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-800">
                  Se muestran las {formatInt(zones.data.data.length)} filas más recientes de {formatInt(zones.data.total_rows)}; los Totales
                  cubren todas. Acota los filtros para ver el resto.
                </p>
              ) : null
            }
          />
        )}
      </Card>

      <div className="space-y-6">
        <Card title="Resumen publisher" actions={publishers.loading && query ? <Reloading /> : null}>
          <ErrorBanner error={publishers.error} fallback="Error al cargar el resumen por publisher" />
          {!publishers.data && publishers.loading && query ? (
            <Loading />
          ) : (
            <ReportTable
              testId="publisher-table"
              caption="Resumen publisher"
              rows={publishers.data ?? []}
              columns={PUBLISHER_COLUMNS}
              totals={summaryTotals(publishers.data ?? [])}
              rowKey={(r) => `${r.date}\u0000${r.publisher}`}
              pageSize={SUMMARY_PAGE_SIZE}
              emptyText={EMPTY}
            />
          )}
        </Card>
        <Card title="Resumen advertiser" actions={advertisers.loading && query ? <Reloading /> : null}>
          <ErrorBanner error={advertisers.error} fallback="Error al cargar el resumen por advertiser" />
          {!advertisers.data && advertisers.loading && query ? (
            <Loading />
          ) : (
            <ReportTable
              testId="advertiser-table"
              caption="Resumen advertiser"
              rows={advertisers.data ?? []}
              columns={ADVERTISER_COLUMNS}
              totals={summaryTotals(advertisers.data ?? [])}
              rowKey={(r) => `${r.date}\u0000${r.advertiser}`}
              pageSize={SUMMARY_PAGE_SIZE}
              emptyText={EMPTY}
            />
          )}
        </Card>
      </div>
    </div>
  );
}
