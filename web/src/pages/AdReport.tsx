// Ad Report (SPEC §2): Zone ID / Advertiser / Publisher / Geo / Source / presets / dates
// filters (the 7 days ending yesterday), the zone table 'Resumen diario por zona' with
// 'Descargar CSV' (adreport_zonas.csv: every matching row from the server, like every other
// screen's; SPEC's page-only CSV is gone) and the 'Resumen publisher' / 'Resumen advertiser'
// tables. The server sorts, pages and totals every table; this screen only renders.
import { useMemo } from 'react';
import {
  ADVERTISER_SUMMARY_SORT_KEYS,
  AD_REPORT_SCREEN_COLUMNS,
  DEFAULT_PAGE_SIZE,
  PUBLISHER_SUMMARY_SORT_KEYS,
  SCREEN_DEFAULT_PRESET,
  SCREEN_PRESETS,
  SUMMARY_PAGE_SIZE,
  TABLE_CSV,
  ZONE_SORT_KEYS,
  contract,
  type MetricColumn,
  type ReportFiltersInput,
  type SummaryRow,
  type ZoneRow,
} from '@adops/core';
import { Card } from '../components/Card';
import { ErrorBanner } from '../components/ErrorBanner';
import { ExportButton } from '../components/ExportButton';
import { Loading, Reloading } from '../components/Loading';
import { ReportFilterBar, initialReportFilters, rangeProblem, toReportQuery, useReportFiltersInUrl } from '../components/ReportFilterBar';
import { ReportTable } from '../components/adreport/ReportTable';
import { ColumnChooser } from '../components/adreport/ColumnChooser';
import { useHiddenColumns } from '../components/adreport/columnChoice';
import { useApi } from '../hooks/useApi';
import { useRawOptions } from '../hooks/useReports';
import { useServerTable } from '../hooks/useServerTable';
import { useUrlParams, useUrlTableView } from '../hooks/useUrlState';

const DEFAULT_PRESET = SCREEN_DEFAULT_PRESET.adReport;
const EMPTY = 'No hay datos para estos filtros.';

/**
 * On screen every header is SPEC's label (Date, Zone ID, Impr., M. Impr., P.CPM, Revenue, Margin…:
 * the Api Explorer's and Dashboard's vocabulary); the CSV keeps adreport_zonas.csv's own headers.
 */
const ZONE_COLUMNS: MetricColumn[] = AD_REPORT_SCREEN_COLUMNS;
/** The key columns: always shown, and kept in view while the table scrolls sideways. */
const KEY_COLUMNS = ['date', 'advertiser', 'publisher', 'zone_id'];
const ALWAYS_SHOWN = ['date', 'zone_id'];
const CHOOSABLE = ZONE_COLUMNS.filter((c) => !ALWAYS_SHOWN.includes(c.key));
const COLUMNS_STORAGE = 'adops.adReport.hiddenColumns';
/** The zone table's metric columns after its six text columns (the summaries show them too). */
const METRIC_COLUMNS = ZONE_COLUMNS.filter((c) => !['date', 'advertiser', 'publisher', 'zone_id', 'geo', 'source'].includes(c.key));
const PUBLISHER_COLUMNS: MetricColumn[] = [{ key: 'date', header: 'Date' }, { key: 'publisher', header: 'Publisher' }, ...METRIC_COLUMNS];
const ADVERTISER_COLUMNS: MetricColumn[] = [{ key: 'date', header: 'Date' }, { key: 'advertiser', header: 'Advertiser' }, ...METRIC_COLUMNS];

const URL_FILTERS = { preset: DEFAULT_PRESET, presets: SCREEN_PRESETS.adReport };
/** Each table's view in the URL: the zone table unprefixed, the summaries under pub_ and adv_. */
const ZONE_VIEW = { pageSize: DEFAULT_PAGE_SIZE.adReport, sortKeys: ZONE_SORT_KEYS };
const PUBLISHER_VIEW = { pageSize: SUMMARY_PAGE_SIZE, sortKeys: PUBLISHER_SUMMARY_SORT_KEYS };
const ADVERTISER_VIEW = { pageSize: SUMMARY_PAGE_SIZE, sortKeys: ADVERTISER_SUMMARY_SORT_KEYS };

const zoneKey = (r: ZoneRow) => JSON.stringify([r.date, r.advertiser, r.publisher, r.zone_id, r.geo, r.source]);

export default function AdReport() {
  const api = useApi();
  const url = useUrlParams();
  const [filters, setFilters] = useReportFiltersInUrl(url, URL_FILTERS);
  const zoneView = useUrlTableView(url, '', ZONE_VIEW);
  const publisherView = useUrlTableView(url, 'pub_', PUBLISHER_VIEW);
  const advertiserView = useUrlTableView(url, 'adv_', ADVERTISER_VIEW);
  const problem = rangeProblem(filters);
  const query: ReportFiltersInput | null = useMemo(() => (problem ? null : toReportQuery(filters)), [filters, problem]);

  const [hiddenColumns, toggleColumn, showAllColumns] = useHiddenColumns(
    COLUMNS_STORAGE,
    CHOOSABLE.map((c) => c.key),
  );
  const options = useRawOptions();
  const zones = useServerTable(query, (q, signal) => api.adReport.zoneDetails(q, { signal }), {
    pageSize: DEFAULT_PAGE_SIZE.adReport,
    store: zoneView,
  });
  const publishers = useServerTable(query, (q, signal) => api.adReport.publisherSummary(q, { signal }), {
    pageSize: SUMMARY_PAGE_SIZE,
    store: publisherView,
  });
  const advertisers = useServerTable(query, (q, signal) => api.adReport.advertiserSummary(q, { signal }), {
    pageSize: SUMMARY_PAGE_SIZE,
    store: advertiserView,
  });

  const hasZones = !!zones.data && zones.fresh && zones.data.total_rows > 0;

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

      <Card title="Resumen diario por zona" actions={zones.loading ? <Reloading /> : null}>
        <ErrorBanner error={zones.error} fallback="Error al cargar el resumen por zona" />
        {!zones.data && zones.loading ? (
          <Loading />
        ) : (
          <ReportTable
            testId="zone-table"
            caption="Resumen diario por zona"
            table={zones}
            columns={ZONE_COLUMNS}
            hidden={hiddenColumns}
            stickyKeys={KEY_COLUMNS}
            sortKeys={ZONE_SORT_KEYS}
            rowKey={zoneKey}
            emptyText={EMPTY}
            actions={
              <>
                <ColumnChooser columns={CHOOSABLE} hidden={hiddenColumns} onToggle={toggleColumn} onShowAll={showAllColumns} />
                <ExportButton
                  label="Descargar CSV"
                  file={TABLE_CSV.zones.file()}
                  disabled={!hasZones || zones.loading}
                  open={(signal, csv) => {
                    const { page: _page, page_size: _size, ...rest } = zones.request!;
                    return api.open(contract.adReport.zoneDetails, { ...rest, format: 'csv', csv }, { signal });
                  }}
                />
              </>
            }
          />
        )}
      </Card>

      <div className="space-y-6">
        <Card title="Resumen publisher" actions={publishers.loading ? <Reloading /> : null}>
          <ErrorBanner error={publishers.error} fallback="Error al cargar el resumen por publisher" />
          {!publishers.data && publishers.loading ? (
            <Loading />
          ) : (
            <ReportTable
              testId="publisher-table"
              caption="Resumen publisher"
              table={publishers}
              columns={PUBLISHER_COLUMNS}
              hidden={hiddenColumns}
              stickyKeys={KEY_COLUMNS}
              sortKeys={PUBLISHER_SUMMARY_SORT_KEYS}
              rowKey={(r: SummaryRow) => `${r.date}\u0000${r.publisher}`}
              emptyText={EMPTY}
            />
          )}
        </Card>
        <Card title="Resumen advertiser" actions={advertisers.loading ? <Reloading /> : null}>
          <ErrorBanner error={advertisers.error} fallback="Error al cargar el resumen por advertiser" />
          {!advertisers.data && advertisers.loading ? (
            <Loading />
          ) : (
            <ReportTable
              testId="advertiser-table"
              caption="Resumen advertiser"
              table={advertisers}
              columns={ADVERTISER_COLUMNS}
              hidden={hiddenColumns}
              stickyKeys={KEY_COLUMNS}
              sortKeys={ADVERTISER_SUMMARY_SORT_KEYS}
              rowKey={(r: SummaryRow) => `${r.date}\u0000${r.advertiser}`}
              emptyText={EMPTY}
            />
          )}
        </Card>
      </div>
    </div>
  );
}
