// A ranked list with a proportional bar per row (the Dashboard's 'Top Zones' and
// 'Top Advertisers'); 'Sin datos' when empty.
import type { ReactNode } from 'react';
import { barPercent } from '@adops/core';

export interface TopItem {
  key: string;
  label: ReactNode;
  value: ReactNode;
  /** What the bar measures (revenue), against the list's first (largest) item. */
  amount: number;
}

export function TopList({ items, barColor = 'bg-blue-500', testId }: { items: readonly TopItem[]; barColor?: string; testId?: string }) {
  if (items.length === 0)
    return (
      <p className="py-6 text-center text-sm text-gray-500" data-testid={testId}>
        Sin datos
      </p>
    );
  const largest = items[0].amount;
  return (
    <ol className="space-y-3" data-testid={testId}>
      {items.map((item) => (
        <li key={item.key}>
          <div className="flex items-baseline justify-between gap-3 text-sm">
            <span className="min-w-0 truncate font-medium text-gray-800">{item.label}</span>
            <span className="shrink-0 tabular-nums text-gray-600">{item.value}</span>
          </div>
          <div className="mt-1 h-2 overflow-hidden rounded-full bg-gray-100">
            <div className={`h-full rounded-full ${barColor}`} style={{ width: `${barPercent(item.amount, largest)}%` }} data-bar />
          </div>
        </li>
      ))}
    </ol>
  );
}
