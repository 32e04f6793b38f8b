// An alert's or evaluation's figures in one line, as the web's Historial, the backtest and
// `adops alerts explain` print them: each label once, its figure formatted as every screen does.
import { expect, it } from 'vitest';
import { alertFiguresText } from './alert-evaluations.js';
import { formatMoney, formatPercent } from './format.js';

it('names each figure once, the percent sign only on the figure', () => {
  const text = alertFiguresText({ spend: 50, revenue: 10, profit: -40, roi: -80, tq: 0.42, unknown: 3 }, 'USD');
  expect(text).toBe(
    `Gasto ${formatMoney(50, 'USD')} · Revenue est. ${formatMoney(10, 'USD')} · Beneficio ${formatMoney(-40, 'USD')} · ROI ${formatPercent(-80, 2)} · TQ 0,42`,
  );
  expect(text).not.toContain('ROI %');
  expect(alertFiguresText({ roi: null }, 'EUR')).toBe('ROI -');
});
