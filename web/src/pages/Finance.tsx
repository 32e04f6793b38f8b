// Finance (SPEC §2, §9): revenue per month by advertiser and by publisher, and the margin per
// month of the chosen domain ('Total' for all), from 2025-01-01 to today unless changed. The
// server sorts, pages and totals the tables (TOTAL rows summed in cents, the same in both).
import { useMemo, useState, type ReactNode } from 'react';
import {
  FINANCE_PAGE_SIZE,
  isValidYmd,
  monthsBetween,
  todayIn,
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
import { MonthlyTable } from '../components/finance/MonthlyTable';
import { marginIsEmpty, marginRow } from '../components/finance/financeTable';
import { reportingTimeZone } from '../lib/timezone';
import { DateInput } from '../components/DateInput';

/** SPEC §9: Finance starts on 2025-01-01. */
const FINANCE_START = '2025-01-01';
const ALL = 'Todos';
/** The shared report filter bar's label style. */
const labelClass = 'mb-1 block text-xs font-medium uppercase tracking-wide text-gray-500';
const NO_DATA = 'No hay datos disponibles';
const NO_MARGIN = 'No hay datos de margen';

export default function Finance() {
  const api = useApi();
  const today = useMemo(() => todayIn(reportingTimeZone()), []);
  const [domain, setDomain] = useState(ALL);
  const [from, setFrom] = useState(FINANCE_START);
  const [to, setTo] = useState(today);

  const rangeOk = isValidYmd(from) && isValidYmd(to) && from <= to;
  // The last valid range stays loaded while the inputs hold an invalid one.
  const [range, setRange] = useState({ from: FINANCE_START, to: today });
  if (rangeOk && (range.from !== from || range.to !== to)) setRange({ from, to });

  const query: FinanceTableQuery = useMemo(
    () => ({ start_date: range.from, end_date: range.to, domain: domain === ALL ? undefined : domain }),
    [range, domain],
  );
  const months = useMemo(() => monthsBetween(range.from, range.to), [range]);

  const domains = useAsync((signal) => api.finance.domains(undefined, { signal }), [api]);
  const advertisers = useServerTable(query, (q, signal) => api.finance.advertisers(q, { signal }), { pageSize: FINANCE_PAGE_SIZE });
  const publishers = useServerTable(query, (q, signal) => api.finance.publishers(q, { signal }), { pageSize: FINANCE_PAGE_SIZE });
  const margin = useAsync((signal) => api.finance.margin(query, { signal }), [api, query]);

  const product = domain === ALL ? 'Total' : domain;
  const productMargin = useMemo(() => marginRow(margin.data ?? [], product, months), [margin.data, product, months]);

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-gray-900">Finance</h1>

      <Card>
        <div className="grid gap-4 sm:grid-cols-3 lg:max-w-3xl">
          <div>
            <label htmlFor="finance-domain" className={labelClass}>
              Domain
            </label>
            <select
              id="finance-domain"
              value={domain}
              onChange={(e) => setDomain(e.target.value)}
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
          </div>
          <div>
            <label htmlFor="finance-from" className={labelClass}>
              Desde
            </label>
            <DateInput id="finance-from" label="Desde" value={from} onChange={setFrom} />
          </div>
          <div>
            <label htmlFor="finance-to" className={labelClass}>
              Hasta
            </label>
            <DateInput id="finance-to" label="Hasta" value={to} onChange={setTo} />
          </div>
        </div>
        {!rangeOk && (
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
      />
      <RevenueTable
        title="Revenue mensual - Publishers"
        nameHeader="Publisher"
        nameKey="publisher"
        tone="green"
        table={publishers}
        what="publishers"
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
            months={months}
            rows={marginIsEmpty(productMargin, months) || !productMargin ? [] : [productMargin]}
            tone="violet"
            emptyText={NO_MARGIN}
          />
        )}
      </Card>
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
}: {
  title: string;
  nameHeader: string;
  nameKey: 'advertiser' | 'publisher';
  tone: 'blue' | 'green';
  table: ServerTable<FinanceTableQuery, FinanceAdvertiserTable | FinancePublisherTable>;
  what: string;
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
          months={page.months}
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
  return <Card title={title}>{body}</Card>;
}
