// Every figure's definition in one list, read from the registries: what `adops metrics` prints
// and the screens' tooltips say, so no face words a definition twice.
import { REGISTRY } from './entries.js';
import { PROFIT_METRICS, type ProfitMetricDef, type ProfitMetricKey } from './profit.js';
import { METRICS, type MetricDef, type MetricKey, type MetricKind } from './registry.js';

/** One figure as the glossary lists it: where it shows, its header, full name, definition, kind and decimals. */
export interface GlossaryEntry {
  area: 'Informes' | 'Rentabilidad' | 'Referrers' | 'Alertas';
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
  return (Object.keys(FIGURES) as GlossaryEntry['area'][]).flatMap((area) =>
    Object.entries(FIGURES[area])
      .filter(([, m]) => m.kind !== 'text')
      .map(([key, m]): GlossaryEntry => ({ area, key, label: m.label, name: m.name, definition: m.definition, kind: m.kind, decimals: m.decimals })),
  );
}

/** What every registry entry tells about its figure, whichever area it belongs to. */
type FigureDef = Pick<MetricDef, 'label' | 'name' | 'definition' | 'kind' | 'decimals'>;

/**
 * Every figure of the console, by the area that shows it: the registry's families (the revenue
 * reports', Rentabilidad's, the referrers' IVT rate and what alert rules measure) under their areas' names.
 */
export const FIGURES: Record<GlossaryEntry['area'], Readonly<Record<string, FigureDef>>> = {
  Informes: REGISTRY.report,
  Rentabilidad: REGISTRY.profit,
  Referrers: REGISTRY.ivt,
  Alertas: REGISTRY.alert,
};

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
