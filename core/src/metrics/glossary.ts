// Every figure's definition in one list, read from the registries: what `adops metrics` prints
// and the screens' tooltips say, so no face words a definition twice.
import { IVT_RATE } from './ivt.js';
import { PROFIT_METRIC_KEYS, PROFIT_METRICS, type ProfitMetricDef, type ProfitMetricKey } from './profit.js';
import { METRICS, type MetricDef, type MetricKey, type MetricKind } from './registry.js';

/** One figure as the glossary lists it: where it shows, its header, full name, definition, kind and decimals. */
export interface GlossaryEntry {
  area: 'Informes' | 'Rentabilidad' | 'Referrers';
  key: string;
  label: string;
  name: string;
  definition: string;
  kind: MetricKind;
  decimals: number;
}

/**
 * Every figure's definition, read from the registries (the revenue reports', Rentabilidad's and the
 * IVT rate): what `adops metrics` prints and the screens' tooltips say, so no face words it twice.
 */
export function metricGlossary(): GlossaryEntry[] {
  const reports = (Object.keys(METRICS) as MetricKey[])
    .filter((key) => METRICS[key].kind !== 'text')
    .map((key): GlossaryEntry => {
      const m: MetricDef = METRICS[key];
      return { area: 'Informes', key, label: m.label, name: m.name, definition: m.definition, kind: m.kind, decimals: m.decimals };
    });
  const profit = PROFIT_METRIC_KEYS.map((key): GlossaryEntry => {
    const m: ProfitMetricDef = PROFIT_METRICS[key];
    return { area: 'Rentabilidad', key, label: m.label, name: m.name, definition: m.definition, kind: m.kind, decimals: m.decimals };
  });
  const ivt: GlossaryEntry = {
    area: 'Referrers',
    key: 'ivt_rate',
    label: IVT_RATE.label,
    name: IVT_RATE.name,
    definition: IVT_RATE.definition,
    kind: IVT_RATE.kind,
    decimals: IVT_RATE.decimals,
  };
  return [...reports, ...profit, ivt];
}

/** A metric's tooltip: its full name and definition ('CTR%: Clics ÷ …'). */
export function metricHelp(key: MetricKey): string {
  const m: MetricDef = METRICS[key];
  return `${m.name}: ${m.definition}`;
}

/** A Rentabilidad figure's tooltip. */
export function profitMetricHelp(key: ProfitMetricKey): string {
  const m: ProfitMetricDef = PROFIT_METRICS[key];
  return `${m.name}: ${m.definition}`;
}
