// A chart's legend as a real list (Tremor's puts its items in a <div> inside an <ol>, which
// screen readers and axe read as a broken list): a colour dot and the series' name each.
import type { ReactNode } from 'react';

export interface LegendItem {
  name: string;
  /** A Tailwind colour with its shade as the chart draws it ('rose-600'); its bg- class is safelisted. */
  color?: string;
  /** Instead of a Tailwind dot: the mark the chart draws (a line's colour as a hex dot, a marker's shape). */
  swatch?: ReactNode;
}

export function ChartLegend({ items, className = 'justify-end' }: { items: readonly LegendItem[]; className?: string }) {
  return (
    <ul aria-label="Leyenda" className={`mb-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-gray-600 ${className}`}>
      {items.map((i) => (
        <li key={i.name} className="inline-flex min-w-0 items-center gap-1.5 [overflow-wrap:anywhere]">
          {i.swatch ?? <span aria-hidden className={`inline-block h-2 w-2 rounded-full bg-${i.color}`} />}
          {i.name}
        </li>
      ))}
    </ul>
  );
}
