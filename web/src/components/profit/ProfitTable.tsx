// Rentabilidad's table at one level (campaigns, or a campaign's ad sets, ads or keywords): the
// registry's columns as the server sorted, paged and totalled them; losing rows in red with a
// 'Pierde' mark; an unknown spend reads 'sin sincronizar', and revenue earned on unsynced days is
// shown apart under the row's; campaigns and ad sets open to what they are made of (the API's `by` with
// `campaign_id` / `adset_id`), each breakdown a table of its own sorted and paged by the server.
import { useState } from 'react';
import {
  PROFIT_DIMENSION_LABELS,
  PROFIT_METRICS,
  profitMetricHelp,
  profitRowLabel,
  UNSYNCED_CELL,
  UNSYNCED_PROFIT_METRICS,
  formatInt,
  type ProfitDimension,
  type ProfitMetricKey,
  type ProfitRow,
  type ProfitTable as ProfitPage,
  type ProfitTableQuery,
} from '@adops/core';
import { DataTable, type Column } from '../DataTable';
import { ErrorBanner } from '../ErrorBanner';
import { Loading } from '../Loading';
import { Pagination } from '../Pagination';
import { useApi } from '../../hooks/useApi';
import { shownPage, useServerTable, type ServerTable } from '../../hooks/useServerTable';
import { profitText } from './format';

/** The columns of the screen, in order (Meta impressions stay in the CSV). */
export const PROFIT_COLUMNS: readonly ProfitMetricKey[] = [
  'spend',
  'meta_clicks',
  'visits',
  'revenue',
  'profit',
  'roi',
  'roas',
  'rpv',
  'cpc',
  'break_even_cpc',
  'tq',
];

/** What a row of each level opens to. */
const CHILDREN: Partial<Record<ProfitDimension, readonly ProfitDimension[]>> = {
  campaign: ['adset', 'ad', 'keyword'],
  adset: ['ad', 'keyword'],
};

const PLURAL: Record<ProfitDimension, string> = {
  campaign: 'Campañas',
  adset: 'Conjuntos de anuncios',
  ad: 'Anuncios',
  keyword: 'Keywords',
  day: 'Días',
};

const BREAKDOWN_PAGE_SIZE = 20;

export type ProfitRange = Pick<ProfitTableQuery, 'start_date' | 'end_date'>;

const rowsText = (by: ProfitDimension, n: number) => `${formatInt(n)} ${PLURAL[by].toLowerCase()}`;

/** A figure of a row or the totals; 'sin sincronizar' (not '-' nor 0) where its spend is not synced. */
export function figureText(key: ProfitMetricKey, r: Pick<ProfitRow, ProfitMetricKey | 'spend_unsynced'>, currency: string) {
  if (r.spend_unsynced && UNSYNCED_PROFIT_METRICS.has(key))
    return (
      <span data-testid="unsynced-cell" className="text-xs italic text-amber-700">
        {UNSYNCED_CELL}
      </span>
    );
  return profitText(key, r[key], currency);
}

/** The revenue earned on days without synced spend, shown apart under the row's revenue. */
function UnsyncedRevenue({ value, currency }: { value: number; currency: string }) {
  return (
    <div
      data-testid="unsynced-revenue"
      className="text-xs text-amber-700"
      title="Revenue de días con el gasto sin sincronizar: fuera del beneficio y el ROI"
    >
      + {profitText('revenue', value, currency)} sin sinc.
    </div>
  );
}

export function LosingMark() {
  return (
    <span data-testid="losing-mark" className="ml-2 inline-flex items-center rounded bg-red-100 px-1.5 py-0.5 text-xs font-semibold text-red-700">
      ▼ Pierde
    </span>
  );
}

export interface ProfitLevelProps {
  by: ProfitDimension;
  table: ServerTable<object, ProfitPage>;
  range: ProfitRange;
  /** Bumped after a spend sync or a rate change: every breakdown loads again. */
  version: number;
  caption: string;
  /** The parents the breakdowns of this level are under. */
  parents?: { campaign_id?: string; adset_id?: string };
}

/** One level: its table, with rows that open to their breakdown, and its pages. */
export function ProfitLevel({ by, table, range, version, caption, parents = {} }: ProfitLevelProps) {
  const page = shownPage(table);
  const totals = page?.totals;
  const currency = totals?.currency ?? 'USD';
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const children = CHILDREN[by];
  const toggle = (key: string) =>
    setOpen((s) => {
      const next = new Set(s);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  const named = by === 'campaign' || by === 'adset' || by === 'ad';

  const columns: Column<ProfitRow>[] = [
    {
      key: named ? 'name' : 'key',
      header: PROFIT_DIMENSION_LABELS[by],
      sortable: true,
      cell: (r) => {
        const label = profitRowLabel(by, named ? r : { ...r, name: null });
        const canOpen = children && r.key !== null;
        return (
          <div className="flex min-w-0 max-w-xs items-start gap-1.5">
            {canOpen ? (
              <button
                type="button"
                aria-expanded={open.has(r.key!)}
                aria-label={`${open.has(r.key!) ? 'Cerrar' : 'Abrir'} ${label}`}
                onClick={() => toggle(r.key!)}
                className="mt-0.5 inline-flex h-5 w-5 shrink-0 items-center justify-center rounded text-gray-500 hover:bg-gray-200 hover:text-gray-900"
              >
                <span aria-hidden className={`transition-transform ${open.has(r.key!) ? 'rotate-90' : ''}`}>
                  ▸
                </span>
              </button>
            ) : (
              children && <span className="w-5 shrink-0" />
            )}
            <div className="min-w-0">
              <div className="flex items-center">
                <span className={`truncate font-medium ${r.losing ? 'text-red-700' : 'text-gray-900'}`} title={label}>
                  {label}
                </span>
                {r.losing && <LosingMark />}
              </div>
              {named && r.key !== null && <div className="font-mono text-xs text-gray-500">{r.key}</div>}
            </div>
          </div>
        );
      },
    },
    ...PROFIT_COLUMNS.map(
      (key): Column<ProfitRow> => ({
        key,
        header: PROFIT_METRICS[key].label,
        help: profitMetricHelp(key),
        sortable: true,
        align: 'right',
        cellClassName: (r) => ((key === 'profit' || key === 'roi') && r.losing ? '!text-red-700 font-semibold' : ''),
        cell: (r) => (
          <>
            {figureText(key, r, currency)}
            {key === 'revenue' && r.estimated && (
              <span className="ml-1 text-xs text-amber-700" title={`${formatInt(r.estimated_visits)} visitas de días estimados`}>
                (est.)
              </span>
            )}
            {key === 'revenue' && r.unsynced_revenue > 0 && <UnsyncedRevenue value={r.unsynced_revenue} currency={currency} />}
          </>
        ),
        total: totals && (
          <span className={(key === 'profit' || key === 'roi') && totals.profit !== null && totals.profit < 0 ? 'text-red-700' : ''}>
            {figureText(key, totals, currency)}
            {key === 'revenue' && totals.unsynced_revenue > 0 && <UnsyncedRevenue value={totals.unsynced_revenue} currency={currency} />}
          </span>
        ),
      }),
    ),
  ];

  if (!page && table.loading) return <Loading label={`Cargando ${PLURAL[by].toLowerCase()}…`} />;
  return (
    <div className="space-y-3">
      <ErrorBanner error={table.error} fallback={`Error al cargar ${PLURAL[by].toLowerCase()}`} />
      {page && (
        <>
          <p data-testid="profit-count" className="text-sm text-gray-500">
            {rowsText(by, page.total_rows)}
          </p>
          <DataTable
            columns={columns}
            rows={page.rows}
            rowKey={(r) => r.key ?? '\u0000'}
            sort={page.sort}
            onSort={table.sortBy}
            totals
            caption={caption}
            busy={table.loading}
            compactHeaders
            emptyText="No hay gasto ni visitas atribuidas en este rango."
            rowProps={(r) => ({ className: r.losing ? 'bg-red-50/60' : '', 'data-losing': r.losing ? 'true' : undefined, 'data-key': r.key ?? '' })}
            expanded={(r) =>
              children && r.key !== null && open.has(r.key) ? (
                <ProfitBreakdown
                  parentBy={by}
                  parentLabel={(named ? r.name : null) ?? r.key}
                  choices={children}
                  range={range}
                  version={version}
                  parents={{ ...parents, ...(by === 'campaign' ? { campaign_id: r.key } : { adset_id: r.key }) }}
                />
              ) : null
            }
          />
          {page.page_count > 1 && (
            <div className="flex justify-end">
              <Pagination page={page.page} pageCount={page.page_count} onPage={table.setPage} />
            </div>
          )}
        </>
      )}
    </div>
  );
}

interface BreakdownProps {
  parentBy: ProfitDimension;
  parentLabel: string;
  choices: readonly ProfitDimension[];
  range: ProfitRange;
  version: number;
  parents: { campaign_id?: string; adset_id?: string };
}

/** What a campaign or ad set is made of: its ad sets, ads or keywords (a choice), sorted and paged by the server. */
function ProfitBreakdown({ parentBy, parentLabel, choices, range, version, parents }: BreakdownProps) {
  const api = useApi();
  const [by, setBy] = useState<ProfitDimension>(choices[0]);
  const table = useServerTable({ ...range, ...parents, by }, (q, signal) => api.profit.table(q, { signal }), {
    pageSize: BREAKDOWN_PAGE_SIZE,
    version,
  });
  const label = `${PROFIT_DIMENSION_LABELS[parentBy]} ${parentLabel}`;
  return (
    <section aria-label={`Desglose de ${label}`} className="space-y-2 border-l-2 border-blue-200 pl-3">
      <div role="tablist" aria-label={`Desglose de ${label}`} className="flex flex-wrap gap-1">
        {choices.map((c) => (
          <button
            key={c}
            type="button"
            role="tab"
            aria-selected={c === by}
            onClick={() => setBy(c)}
            className={`rounded-md px-2.5 py-1 text-xs font-medium ${c === by ? 'bg-blue-600 text-white' : 'bg-white text-gray-700 ring-1 ring-gray-300 hover:bg-gray-100'}`}
          >
            {PLURAL[c]}
          </button>
        ))}
      </div>
      <ProfitLevel
        by={by}
        table={table as ServerTable<object, ProfitPage>}
        range={range}
        version={version}
        caption={`${PLURAL[by]} de ${label}`}
        parents={parents}
      />
    </section>
  );
}
