// Rentabilidad's figures as the screens show them: core's formatProfitFigure (the registry's
// format in the network's currency — $ and € as elsewhere, any other ISO code after the number),
// the same the terminal uses.
import { formatProfitFigure } from '@adops/core';

export const profitText = formatProfitFigure;

/** A money amount of the network's currency with 2 decimals (the Fb Campaigns columns and the chart). */
export function networkMoney(value: number | null | undefined, currency: string): string {
  return formatProfitFigure('revenue', value, currency);
}
