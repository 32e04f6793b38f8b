// The days of a page led by the day: from each day's count (`n`: rows or groups), in the order's
// direction, the days that hold items offset … offset+limit, the offset within the first of them,
// and how many items there are in all. A page's statement then reads only those days.

export interface PageDays {
  /** The days holding the page (start ≤ end); undefined when the offset is past the last item. */
  range: { start: string; end: string } | undefined;
  /** The page's offset within `range`. */
  offset: number;
  total: number;
}

export function pageDays(days: ReadonlyArray<{ date: string; n: number }>, dir: 'asc' | 'desc', offset: number, limit: number): PageDays {
  let total = 0;
  let before = 0; // items in the days before the page's first
  let first: string | undefined;
  let last: string | undefined;
  for (const day of days) {
    const count = Number(day.n);
    if (first === undefined && total + count <= offset) before += count;
    else if (total < offset + limit) {
      first ??= day.date;
      last = day.date;
    }
    total += count;
  }
  if (first === undefined || last === undefined) return { range: undefined, offset: 0, total };
  return { range: dir === 'asc' ? { start: first, end: last } : { start: last, end: first }, offset: offset - before, total };
}
