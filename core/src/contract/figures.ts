// The contract's figure fields, generated from the metrics registry: which figures a row, a total
// or a card carries and whether each may be null is read from the registry's entries, so a figure
// added to the registry reaches the contract (and its OpenAPI) without one more hand list.
import { z } from 'zod';
import {
  type AnyFigureDef,
  type DerivedKey,
  type FigureFamily,
  METRICS,
  type MetricDef,
  type MetricKey,
  type ProfitMetricKey,
  REGISTRY,
} from '../metrics.js';

/** A summed figure (money or a count): always a number (0 for an empty group). */
const summed = z.number();
/** A derived figure: a number, or null when its base is 0 or a value is missing. */
const derived = z.number().nullable();

type Summed = typeof summed;
type Derived = typeof derived;

/** The zod fields of some report figures: a summed one a number, a derived one (a formula's) a number or null. */
export type ReportFigureFields<K extends MetricKey> = { [P in K]: P extends DerivedKey ? Derived : Summed };

/**
 * The zod fields of the given report figures as `defs` (the registry's `report` family unless a test
 * passes its own) defines them; a text metric or an unknown key is a mistake of the caller.
 */
export function reportFigureFieldsOf(keys: readonly string[], defs: Readonly<Record<string, MetricDef>>): Record<string, Summed | Derived> {
  return Object.fromEntries(
    keys.map((key) => {
      const def = defs[key];
      if (!def || def.kind === 'text') throw new Error(`${key} is not a figure of the registry`);
      return [key, def.formula ? derived : summed];
    }),
  );
}

/** The zod fields of the given figures of the registry's revenue reports (in the keys' order). */
export function reportFigureFields<const K extends MetricKey>(keys: readonly K[]): ReportFigureFields<K> {
  return reportFigureFieldsOf(keys, METRICS) as ReportFigureFields<K>;
}

/** The same figures as changes (percent against a base): each a number, or null when no change can be told. */
export function figureChangeFields<K extends MetricKey>(keys: readonly K[]): Record<K, Derived> {
  return Object.fromEntries(keys.map((key) => [key, derived])) as Record<K, Derived>;
}

/** Every figure of a family (`defs`: the registry's unless a test passes its own), each a number or null: a profit or IVT group's figures. */
export function familyFigureFieldsOf(defs: Readonly<Record<string, AnyFigureDef>>): Record<string, Derived> {
  return Object.fromEntries(Object.keys(defs).map((key) => [key, derived]));
}

const familyFields = <F extends Exclude<FigureFamily, 'report'>>(family: F) =>
  familyFigureFieldsOf(REGISTRY[family]) as Record<keyof (typeof REGISTRY)[F], Derived>;

/** A Rentabilidad row's or total's figures (null: an unknown spend, a 0 base). */
export const PROFIT_FIGURE_FIELDS: Record<ProfitMetricKey, Derived> = familyFields('profit');

/** An IVT row's or total's figure (the IVT rate; null without hits). */
export const IVT_FIGURE_FIELDS = familyFields('ivt');
