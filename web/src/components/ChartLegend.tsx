// A chart's legend as a real list (Tremor's puts its items in a <div> inside an <ol>, which
// screen readers and axe read as a broken list): a colour dot and the series' name each.

export interface LegendItem {
  name: string;
  /** A Tailwind colour with its shade as the chart draws it ('rose-600'); its bg- class is safelisted. */
  color: string;
}

export function ChartLegend({ items }: { items: readonly LegendItem[] }) {
  return (
    <ul aria-label="Leyenda" className="mb-2 flex flex-wrap justify-end gap-x-4 gap-y-1 text-sm text-gray-600">
      {items.map((i) => (
        <li key={i.name} className="inline-flex items-center gap-1.5">
          <span aria-hidden className={`inline-block h-2 w-2 rounded-full bg-${i.color}`} />
          {i.name}
        </li>
      ))}
    </ul>
  );
}
