// The contract's figure fields and the registry's key lists are generated from the one metrics
// registry: an entry added to (or dropped from) a family shows up in (or leaves) every derived list,
// and a figure left out of the report sort keys still fails to compile.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  type AnyFigureDef,
  FIGURE_KEYS,
  type MetricDef,
  PROFIT_METRIC_KEYS,
  REGISTRY,
  derivedKeysOf,
  figureKeysOf,
  figureValue,
  rowDerivedKeysOf,
  summedKeysOf,
} from '../metrics.js';
import { familyFigureFieldsOf, reportFigureFieldsOf } from './figures.js';
import { ProfitRow, ProfitTotals } from './profit.js';
import { IvtRow } from './referrers.js';
import { DAILY_SORT_KEYS, DailyRow, ReportTotals, ZoneRow } from './reports.js';

const report: Readonly<Record<string, MetricDef>> = REGISTRY.report;
/** The revenue reports' family with one more derived figure (revenue per click over the CTR base). */
const withRpm: Record<string, MetricDef> = {
  ...report,
  rpm_base: {
    label: 'RPM b.',
    name: 'Revenue por base',
    definition: 'Revenue ÷ base del CTR × 1.000.',
    kind: 'money',
    decimals: 2,
    formula: { op: 'ratio', num: 'revenue', den: 'ctr_base', scale: 1000 },
  },
};
const { p_cpc: _dropped, ...withoutPCpc } = report;

describe('the contract reads its figure fields from the registry', () => {
  it("a group's fields are every registry figure; a row's ratios are the derived ones it does not store", () => {
    expect(Object.keys(ReportTotals.shape)).toEqual(FIGURE_KEYS);
    expect(Object.keys(DailyRow.shape)).toEqual(['date', ...FIGURE_KEYS, 'rank']);
    expect(Object.keys(ZoneRow.shape).filter((k) => derivedKeysOf(report).includes(k))).toEqual(['tq', ...rowDerivedKeysOf(report)]);
  });

  it("Rentabilidad's and the IVT table's figures are their families' keys", () => {
    const profitKeys = Object.keys(REGISTRY.profit);
    expect(Object.keys(ProfitRow.shape).filter((k) => profitKeys.includes(k))).toEqual(PROFIT_METRIC_KEYS);
    expect(Object.keys(ProfitTotals.shape).filter((k) => profitKeys.includes(k))).toEqual(PROFIT_METRIC_KEYS);
    expect(Object.keys(IvtRow.shape).filter((k) => !['zone_id', 'publisher', 'hits', 'bot_hits'].includes(k))).toEqual(Object.keys(REGISTRY.ivt));
  });

  it('a summed figure is a number, a derived one may be null (no base)', () => {
    const fields = reportFigureFieldsOf(FIGURE_KEYS, report);
    expect(fields.revenue.safeParse(null).success).toBe(false);
    expect(fields.ctr.safeParse(null).success).toBe(true);
  });

  it('a text metric is no figure field', () => {
    expect(() => reportFigureFieldsOf(['date'], report)).toThrow(/date/);
  });
});

describe('one entry added to or dropped from the registry changes every derived list', () => {
  it('a new derived report figure joins the derived keys, the group figures and their zod shape', () => {
    expect(derivedKeysOf(withRpm)).toEqual([...derivedKeysOf(report), 'rpm_base']);
    expect(rowDerivedKeysOf(withRpm)).toEqual([...rowDerivedKeysOf(report), 'rpm_base']);
    expect(figureKeysOf(withRpm)).toEqual([...FIGURE_KEYS, 'rpm_base']);
    const shape = reportFigureFieldsOf(figureKeysOf(withRpm), withRpm);
    expect(Object.keys(shape)).toEqual(figureKeysOf(withRpm));
    expect(shape.rpm_base.safeParse(null).success).toBe(true);
  });

  it('a dropped figure leaves them', () => {
    expect(figureKeysOf(withoutPCpc)).toEqual(FIGURE_KEYS.filter((k) => k !== 'p_cpc'));
    expect(Object.keys(reportFigureFieldsOf(figureKeysOf(withoutPCpc), withoutPCpc))).not.toContain('p_cpc');
    expect(summedKeysOf(withoutPCpc)).toEqual(summedKeysOf(report));
  });

  it('a new Rentabilidad figure gets its field and its value from the one evaluator, reading another figure', () => {
    const profit: Record<string, AnyFigureDef> = {
      ...REGISTRY.profit,
      profit_per_visit: {
        key: 'profit_per_visit',
        family: 'profit',
        label: 'Benef./visita',
        name: 'Beneficio por visita',
        definition: 'Beneficio ÷ visitas.',
        kind: 'money',
        decimals: 4,
        formula: { op: 'ratio', num: 'profit', den: 'visits', scale: 1, positiveBase: true },
      },
    };
    expect(Object.keys(familyFigureFieldsOf(profit))).toEqual([...PROFIT_METRIC_KEYS, 'profit_per_visit']);
    const sums = { spend: 30, meta_clicks: 10, meta_impressions: 900, visits: 8, revenue: 50, tq_weighted: 0, tq_weight: 0 };
    expect(figureValue('profit', 'profit_per_visit', sums, profit)).toBe(2.5);
    expect(figureValue('profit', 'profit_per_visit', { ...sums, visits: 0 }, profit)).toBeNull();
  });
});

describe('the report sort keys are held to the registry at compile time', () => {
  it('lists every figure, in the order a group lists them', () => {
    expect(DAILY_SORT_KEYS.slice(1)).toEqual(FIGURE_KEYS);
  });

  /** Type-checks a snippet beside values.ts and returns its errors' lines. */
  function errorLines(snippet: string): number[] {
    const here = path.dirname(fileURLToPath(import.meta.url));
    const file = path.join(here, '__sort-keys-check__.ts');
    const options: ts.CompilerOptions = {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      types: [],
    };
    const host = ts.createCompilerHost(options);
    const getSourceFile = host.getSourceFile;
    host.getSourceFile = (name, lang, ...rest) =>
      name === file ? ts.createSourceFile(name, snippet, lang) : getSourceFile.call(host, name, lang, ...rest);
    const fileExists = host.fileExists;
    host.fileExists = (name) => name === file || fileExists.call(host, name);
    const program = ts.createProgram([file], options, host);
    return ts
      .getPreEmitDiagnostics(program, program.getSourceFile(file))
      .map((d) => (d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0));
  }

  it('compiles with every figure listed and fails on a list missing one', () => {
    const listed = (keys: readonly string[]) => `[${keys.map((k) => `'${k}'`).join(', ')}] as const`;
    const snippet = [
      "import type { UnsortableFigures } from './values.js';",
      `const all = ${listed(FIGURE_KEYS)};`,
      'export const ok: [UnsortableFigures<typeof all>] extends [never] ? true : never = true;',
      `const short = ${listed(FIGURE_KEYS.filter((k) => k !== 'p_cpc'))};`,
      'export const bad: [UnsortableFigures<typeof short>] extends [never] ? true : never = true;',
    ].join('\n');
    expect(errorLines(snippet)).toEqual([5]);
  }, 60_000);
});
