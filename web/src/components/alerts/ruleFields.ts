// The fields of each kind of alert rule as the form shows them (label, input, default), and how
// a rule's parameters become the form's values and back.
import type { AlertRule, AlertRuleKind } from '@adops/core';

type FieldDef = {
  key: string;
  label: string;
  type: 'number' | 'text' | 'select' | 'checkbox';
  options?: Array<[string, string]>;
  initial: string | boolean;
};

const TARGET = (label: string): FieldDef => ({ key: 'target', label, type: 'text', initial: '' });
/** What a rule watches ('De'): the first option is the default. */
const SCOPE = (...options: Array<[string, string]>): FieldDef => ({ key: 'scope', label: 'De', type: 'select', options, initial: options[0][0] });
export const FIELDS: Record<AlertRuleKind, FieldDef[]> = {
  tq_low: [
    SCOPE(['zone', 'Zona'], ['publisher', 'Publisher']),
    TARGET('Zona o publisher (vacío: todas)'),
    { key: 'threshold', label: 'TQ menor que', type: 'number', initial: '0.5' },
    { key: 'hours', label: 'Últimas horas', type: 'number', initial: '6' },
    { key: 'min_impressions', label: 'Impresiones mínimas', type: 'number', initial: '1000' },
  ],
  revenue_drop: [
    SCOPE(['zone', 'Zona'], ['publisher', 'Publisher'], ['advertiser', 'Advertiser']),
    TARGET('Zona, publisher o advertiser (vacío: todos)'),
    { key: 'drop_percent', label: 'Caída mínima (%)', type: 'number', initial: '30' },
    { key: 'hours', label: 'Horas (días completos)', type: 'number', initial: '24' },
    { key: 'min_revenue', label: 'Revenue mínimo de la semana anterior', type: 'number', initial: '10' },
  ],
  referrer_burst: [
    TARGET('Host del referrer (vacío: cualquiera)'),
    { key: 'new_only', label: 'Solo referrers nunca vistos', type: 'checkbox', initial: false },
    { key: 'visits', label: 'Más de N visitas', type: 'number', initial: '500' },
    { key: 'minutes', label: 'En M minutos', type: 'number', initial: '10' },
  ],
  ip_burst: [
    { key: 'visits', label: 'Más de N visitas', type: 'number', initial: '100' },
    { key: 'minutes', label: 'En M minutos', type: 'number', initial: '10' },
  ],
  campaign_roi: [
    {
      key: 'level',
      label: 'Nivel',
      type: 'select',
      options: [
        ['campaign', 'Campaña'],
        ['adset', 'Conjunto de anuncios'],
      ],
      initial: 'campaign',
    },
    TARGET('Id de campaña o conjunto (vacío: todos)'),
    {
      key: 'metric',
      label: 'Condición',
      type: 'select',
      options: [
        ['roi', 'ROI bajo un umbral'],
        ['cpc', 'CPC sobre el de equilibrio'],
      ],
      initial: 'roi',
    },
    { key: 'threshold', label: 'ROI menor que (%)', type: 'number', initial: '0' },
    { key: 'hours', label: 'Últimas horas', type: 'number', initial: '24' },
    { key: 'min_spend', label: 'Gasto mínimo', type: 'number', initial: '10' },
    // Minimum data besides spend before the rule judges a campaign (0: none asked).
    { key: 'min_clicks', label: 'Clics mínimos en Meta', type: 'number', initial: '0' },
    { key: 'min_visits', label: 'Visitas mínimas', type: 'number', initial: '0' },
    // Off: only days with synced spend and a final zone report count (never a pause on a partial day).
    { key: 'use_estimates', label: 'Usar revenue estimado (días con informe parcial o sin informe)', type: 'checkbox', initial: false },
  ],
};

export type Values = Record<string, string | boolean>;
export const initialValues = (kind: AlertRuleKind): Values => Object.fromEntries(FIELDS[kind].map((f) => [f.key, f.initial]));
export const valuesOf = (rule: AlertRule): Values =>
  Object.fromEntries(
    FIELDS[rule.kind].map((f) => {
      const v = rule.params[f.key];
      return [f.key, f.type === 'checkbox' ? Boolean(v) : v == null ? '' : String(v)];
    }),
  );
export const paramsOf = (kind: AlertRuleKind, values: Values): Record<string, unknown> =>
  Object.fromEntries(
    FIELDS[kind]
      .filter((f) => !(f.key === 'threshold' && kind === 'campaign_roi' && values.metric === 'cpc'))
      .map((f) => [f.key, f.type === 'number' ? (values[f.key] === '' ? undefined : Number(values[f.key])) : values[f.key]]),
  );
