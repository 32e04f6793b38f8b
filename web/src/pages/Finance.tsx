// Finance (SPEC §2, §9): revenue per month by advertiser and by publisher, and the margin per
// month of the chosen domain ('Total' for all), from 2025-01-01 to today unless changed. The
// server sorts, pages and totals the tables (each amount exact, rounded once when shown; the
// TOTAL rows are each month's revenue, the same in both, and a footnote says rows may differ).
import { useMemo, type ReactNode } from 'react';
import {
  FINANCE_PAGE_SIZE,
  FINANCE_ROUNDING_NOTE,
  contract,
  financeCsvFile,
  isValidYmd,
  monthsBetween,
  todayIn,
  type CsvDialect,
  type FinanceAdvertiserTable,
  type FinancePublisherTable,
  type FinanceTableQuery,
} from '@adops/core';
import { useApi } from '../hooks/useApi';
import { useAsync } from '../hooks/useAsync';
import { shownPage, useServerTable, type ServerTable } from '../hooks/useServerTable';
import { Card } from '../components/Card';
import { ErrorBanner } from '../components/ErrorBanner';
import { Loading } from '../components/Loading';
import { Pagination } from '../components/Pagination';
import { inputClass } from '../components/styles';
import { FormField } from '../components/FormField';
import { MonthlyTable } from '../components/finance/MonthlyTable';
import { marginIsEmpty, marginRow, monthLabel } from '../components/finance/financeTable';
import { ExportButton } from '../components/ExportButton';
import { useUrlParams, useUrlTableView, useUrlValue } from '../hooks/useUrlState';
import { clearPages, readChoice, readDay, setParam } from '../lib/urlState';
import { reportingTimeZone } from '../lib/timezone';
import { DateInput } from '../components/DateInput';

/** SPEC §9: Finance starts on 2025-01-01. */
const FINANCE_START = '2025-01-01';
const ALL = 'Todos';
const NO_DATA = 'No hay datos disponibles';
const NO_MARGIN = 'No hay datos de margen';

/** The Finance view of a URL: domain, from and to (defaults: every domain, 2025-01-01 to today); all_months=1 keeps the empty months. */
export interface FinanceView {
  domain: string;
  from: string;
  to: string;
  allMonths: boolean;
}

export function readFinanceView(params: URLSearchParams, today: string): FinanceView {
  return {
    domain: readChoice(params, 'domain', ALL),
    from: readDay(params, 'from') ?? FINANCE_START,
    to: readDay(params, 'to') ?? today,
    allMonths: params.get('all_months') === '1',
  };
}

export function writeFinanceView(params: URLSearchParams, v: FinanceView, today: string): void {
  setParam(params, 'domain', v.domain, ALL);
  setParam(params, 'from', v.from, FINANCE_START);
  setParam(params, 'to', v.to, today);
  setParam(params, 'all_months', v.allMonths ? '1' : null);
  clearPages(params);
}

/**
 * The months shown: from the first month any TOTAL row the server answered has an amount in,
 * unless the range was chosen by hand or every month was asked for (SPEC's 2025-01-01 start
 * would open on a row of empty months). No figure is computed: the server's totals are read.
 */
export function shownMonths(months: readonly string[], totals: ReadonlyArray<Record<string, unknown> | undefined>, trim: boolean): readonly string[] {
  if (!trim) return months;
  const first = months.findIndex((m) => totals.some((t) => typeof t?.[m] === 'number' && t[m] !== 0));
  return first <= 0 ? months : months.slice(first);
}

const TABLE_VIEW = { pageSize: FINANCE_PAGE_SIZE };

export default function Finance() {
  const api = useApi();
  const today = useMemo(() => todayIn(reportingTimeZone()), []);
  const url = useUrlParams();
  const rangeOk = (v: FinanceView) => isValidYmd(v.from) && isValidYmd(v.to) && v.from <= v.to;
  const [view, setView] = useUrlValue(
    url,
    (p) => readFinanceView(p, today),
    (p, v) => writeFinanceView(p, v, today),
    rangeOk,
  );
  const { domain, from, to } = view;
  // The URL holds the last valid range: it stays loaded while the inputs hold an invalid one.
  const range = useMemo(() => readFinanceView(url.params, today), [url.params, today]);
  const byHand = url.params.has('from');
  const trim = !byHand && !range.allMonths;

  const query: FinanceTableQuery = useMemo(
    () => ({ start_date: range.from, end_date: range.to, domain: range.domain === ALL ? undefined : range.domain }),
    [range],
  );
  const months = useMemo(() => monthsBetween(range.from, range.to), [range]);

  const domains = useAsync((signal) => api.finance.domains(undefined, { signal }), [api]);
  const advertisers = useServerTable(query, (q, signal) => api.finance.advertisers(q, { signal }), {
    pageSize: FINANCE_PAGE_SIZE,
    store: useUrlTableView(url, 'adv_', TABLE_VIEW),
  });
  const publishers = useServerTable(query, (q, signal) => api.finance.publishers(q, { signal }), {
    pageSize: FINANCE_PAGE_SIZE,
    store: useUrlTableView(url, 'pub_', TABLE_VIEW),
  });
  const margin = useAsync((signal) => api.finance.margin(query, { signal }), [api, query]);

  const product = range.domain === ALL ? 'Total' : range.domain;
  const productMargin = useMemo(() => marginRow(margin.data ?? [], product, months), [margin.data, product, months]);
  const advPage = advertisers.fresh ? shownPage(advertisers) : undefined;
  const pubPage = publishers.fresh ? shownPage(publishers) : undefined;
  const shown = shownMonths(months, [advPage?.totals, pubPage?.totals, productMargin ?? undefined], trim);
  const hidden = months.length - shown.length;
  const exportOpen =
    (route: typeof contract.finance.advertisers | typeof contract.finance.publishers, table: { request: (FinanceTableQuery & object) | null }) =>
    (signal: AbortSignal, csv: CsvDialect) => {
      const { page: _page, page_size: _size, ...rest } = table.request as FinanceTableQuery;
      return api.open(route, { ...rest, format: 'csv', csv }, { signal });
    };

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-gray-900">Finance</h1>

      <Card>
        <div className="grid gap-4 sm:grid-cols-3 lg:max-w-3xl">
          <FormField id="finance-domain" label="Domain" filter>
            <select
              id="finance-domain"
              value={domain}
              onChange={(e) => setView({ ...view, domain: e.target.value })}
              disabled={domains.loading && !domains.data}
              className={inputClass}
            >
              <option value={ALL}>{ALL}</option>
              {(domains.data?.domains ?? []).map((d) => (
                <option key={d} value={d}>
                  {d}
                </option>
              ))}
            </select>
          </FormField>
          <FormField id="finance-from" label="Desde" filter>
            <DateInput id="finance-from" label="Desde" value={from} onChange={(v) => setView({ ...view, from: v, allMonths: false })} />
          </FormField>
          <FormField id="finance-to" label="Hasta" filter>
            <DateInput id="finance-to" label="Hasta" value={to} onChange={(v) => setView({ ...view, to: v })} />
          </FormField>
        </div>
        {hidden > 0 && (
          <p className="mt-3 flex flex-wrap items-center gap-x-2 text-sm text-gray-500" data-testid="finance-first-month">
            Desde {monthLabel(shown[0]!)}, el primer mes con datos ({hidden} {hidden === 1 ? 'mes' : 'meses'} sin datos antes).
            <button type="button" className="font-medium text-blue-600 hover:underline" onClick={() => setView({ ...range, allMonths: true })}>
              Ver todos los meses
            </button>
          </p>
        )}
        {!rangeOk(view) && (
          <p role="alert" className="mt-3 text-sm text-red-600">
            Rango de fechas no válido: se muestran los datos del último rango válido.
          </p>
        )}
        {domains.error != null && (
          <div className="mt-3">
            <ErrorBanner error={domains.error} fallback="Error al cargar los dominios" />
          </div>
        )}
      </Card>

      <RevenueTable
        title="Revenue mensual - Advertisers"
        nameHeader="Advertiser"
        nameKey="advertiser"
        tone="blue"
        table={advertisers}
        what="advertisers"
        months={shown}
        csv={{ file: financeCsvFile('advertisers', range.from, range.to), open: exportOpen(contract.finance.advertisers, advertisers) }}
      />
      <RevenueTable
        title="Revenue mensual - Publishers"
        nameHeader="Publisher"
        nameKey="publisher"
        tone="green"
        table={publishers}
        what="publishers"
        months={shown}
        csv={{ file: financeCsvFile('publishers', range.from, range.to), open: exportOpen(contract.finance.publishers, publishers) }}
      />

      <Card title={`Margen mensual - ${product}`}>
        {margin.error ? (
          <ErrorBanner error={margin.error} fallback="Error al cargar el margen" />
        ) : margin.loading ? (
          <Loading />
        ) : (
          <MonthlyTable
            caption={`Margen mensual - ${product}`}
            nameHeader="Producto"
            nameKey="name"
            months={shown}
            rows={marginIsEmpty(productMargin, months) || !productMargin ? [] : [productMargin]}
            tone="violet"
            emptyText={NO_MARGIN}
          />
        )}
      </Card>

      <p className="text-sm text-gray-500" data-testid="finance-rounding-note">
        {FINANCE_ROUNDING_NOTE}
      </p>
    </div>
  );
}

/** A revenue table of the server's page: its months, rows and TOTAL row; paging only when there is more than one page. */
function RevenueTable({
  title,
  nameHeader,
  nameKey,
  tone,
  table,
  what,
  months,
  csv,
}: {
  title: string;
  nameHeader: string;
  nameKey: 'advertiser' | 'publisher';
  tone: 'blue' | 'green';
  table: ServerTable<FinanceTableQuery, FinanceAdvertiserTable | FinancePublisherTable>;
  what: string;
  /** The month columns shown (the server's, from the first month with data by default). */
  months: readonly string[];
  /** The server's export of the whole table (every month of the range). */
  csv: { file: string; open: (signal: AbortSignal, csv: CsvDialect) => Promise<Response> };
}) {
  const page = shownPage(table);
  let body: ReactNode;
  if (table.error) body = <ErrorBanner error={table.error} fallback={`Error al cargar el revenue de ${what}`} />;
  else if (!page || (table.loading && !table.fresh)) body = <Loading />;
  else
    body = (
      <div className="space-y-3">
        <MonthlyTable
          caption={title}
          nameHeader={nameHeader}
          nameKey={nameKey}
          months={page.months.filter((m) => months.includes(m))}
          rows={page.rows}
          totals={page.totals}
          tone={tone}
          emptyText={NO_DATA}
          sort={page.sort}
          onSort={table.sortBy}
          busy={table.loading}
        />
        {page.page_count > 1 && (
          <div className="flex justify-end">
            <Pagination page={page.page} pageCount={page.page_count} onPage={table.setPage} />
          </div>
        )}
      </div>
    );
  const actions = (
    <ExportButton label="Descargar CSV" file={csv.file} open={csv.open} disabled={!page || !table.fresh || table.loading || page.total_rows === 0} />
  );
  return (
    <Card title={title} actions={actions}>
      {body}
    </Card>
  );
}
