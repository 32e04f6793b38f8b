// The report filters whose values the server lists (`adops options`), with their labels: read by
// the filters' checks and by completion, which asks the server for them as you type.
export const LISTED: ReadonlyArray<{ flag: 'advertiser' | 'publisher' | 'geo' | 'source' | 'domain'; label: string }> = [
  { flag: 'advertiser', label: 'Advertiser' },
  { flag: 'publisher', label: 'Publisher' },
  { flag: 'geo', label: 'Geo' },
  { flag: 'source', label: 'Source' },
  { flag: 'domain', label: 'Dominio' },
];
