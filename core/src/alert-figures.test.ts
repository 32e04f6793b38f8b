// An alert's or evaluation's figures in one line, as the web's Historial, the backtest and
// `adops alerts explain` print them: each label once, from the registry of the rule kind's family,
// its figure formatted as every screen does.
import { expect, it } from 'vitest';
import { alertFiguresText } from './alert-evaluations.js';
import { formatInt, formatMoney, formatNumber, formatPercent } from './format.js';
import { METRICS, PROFIT_METRICS, REGISTRY } from './metrics.js';

it('names each figure once, the percent sign only on the figure', () => {
  const text = alertFiguresText({ spend: 50, revenue: 10, profit: -40, roi: -80, tq: 0.42, unknown: 3 }, 'USD', 'campaign_roi');
  // A zone rule's revenue reads 'Revenue' (the report's name), never the table header 'Rev'.
  expect(alertFiguresText({ revenue: 1 }, 'USD', 'tq_low')).toBe(`Revenue ${formatMoney(1, 'USD')}`);
  expect(text).toBe(
    `Gasto ${formatMoney(50, 'USD')} · Revenue est. ${formatMoney(10, 'USD')} · Beneficio ${formatMoney(-40, 'USD')} · ROI ${formatPercent(-80, 2)} · TQ 0,42`,
  );
  expect(text).not.toContain('ROI %');
  expect(alertFiguresText({ roi: null }, 'EUR', 'campaign_roi')).toBe('ROI -');
});

it("a zone rule's revenue is the report's (reported), a campaign's the estimate: one label per meaning", () => {
  const zone = alertFiguresText({ tq: 0.3149, impressions: 12345.4, revenue: 7.5 }, 'EUR', 'tq_low');
  expect(zone).toBe(
    `${METRICS.tq.name} ${formatNumber(0.3149, METRICS.tq.decimals)} · ${METRICS.impressions.name} ${formatInt(12345)} · ${METRICS.revenue.name} ${formatMoney(7.5, 'EUR')}`,
  );
  expect(zone).not.toContain(PROFIT_METRICS.revenue.label);
  expect(alertFiguresText({ revenue: 7.5 }, 'EUR', 'campaign_roi')).toBe(`${PROFIT_METRICS.revenue.label} ${formatMoney(7.5, 'EUR')}`);
});

it("what a rule measures that no report derives reads as the registry's alert family says", () => {
  const drop = alertFiguresText({ revenue: 55, revenue_last_week: 100, change_percent: -45 }, 'USD', 'revenue_drop');
  const { revenue_last_week: week, change_percent: change } = REGISTRY.alert;
  expect(drop).toBe(
    `${METRICS.revenue.name} ${formatMoney(55, 'USD')} · ${week.label} ${formatMoney(100, 'USD')} · ${change.label} ${formatPercent(-45, change.decimals)}`,
  );
  expect(alertFiguresText({ visits: 25, minutes: 10 }, 'USD', 'ip_burst')).toBe(
    `${REGISTRY.alert.visits.label} 25 · ${REGISTRY.alert.minutes.label} 10`,
  );
});
