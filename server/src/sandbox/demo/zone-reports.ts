// Demo zone reports: 90 days ending today (reporting time zone) for the three fixed
// advertisers, ~40 publishers and ~2,000 zones, from a seeded PRNG so every run with the same
// `now` gives the same data. Loaded through the ingest path, so it validates and upserts like
// any import; `startZoneReports` loads it on start when the table is empty and demo is on.
import { FIXED_ADVERTISERS, addDays, todayIn, weekdayIndex, zonedParts, type IngestResult } from '@adops/core';
import type { AppServices } from '../../services/index.js';
import type { IngestItem } from '../../services/ingest-zone-record.js';
import { prng } from './prng.js';

export interface DemoOptions {
  /** The instant "today" is taken from (default now). */
  now?: Date;
  days?: number;
  zones?: number;
  seed?: number;
}

/** Geo, its relative volume and its CPM in dollars. */
const GEOS: ReadonlyArray<[string, number, number]> = [
  ['ES', 24, 1.6],
  ['MX', 18, 0.7],
  ['AR', 10, 0.5],
  ['CO', 9, 0.6],
  ['US', 8, 3.2],
  ['CL', 7, 0.9],
  ['PE', 6, 0.5],
  ['BR', 6, 0.8],
  ['FR', 5, 1.9],
  ['IT', 4, 1.5],
];
const SOURCES: ReadonlyArray<[string, number]> = [
  ['search', 30],
  ['social', 25],
  ['direct', 15],
  ['native', 14],
  ['push', 10],
  ['email', 6],
];
/** Relative volume and price level per advertiser (FIXED_ADVERTISERS order). */
const ADVERTISER_WEIGHT = [50, 32, 18];
const ADVERTISER_PRICE = [1.0, 1.15, 0.85];
const PREFIXES = ['Diario', 'Portal', 'Revista', 'Red', 'Canal', 'Mundo', 'Zona', 'Club', 'Guía', 'Planeta'];
const TOPICS = ['Deportes', 'Noticias', 'Recetas', 'Motor', 'Viajes', 'Tech', 'Salud', 'Finanzas', 'Cine', 'Juegos', 'Moda', 'Música'];
const TLDS = ['.com', '.es', '.net', '.com.mx', '.com.ar'];
/** Monday-first traffic by weekday: weekends are quieter. */
const WEEKDAY = [1.06, 1.08, 1.04, 1.0, 0.95, 0.8, 0.85];
/** The publisher on a guaranteed deal paid above its revenue (margin losses). */
export const DEMO_LOSS_PUBLISHER_SHARE = 1.15;

function weighted<T>(rand: () => number, items: ReadonlyArray<T>, weight: (t: T) => number): T {
  const total = items.reduce((s, t) => s + weight(t), 0);
  let r = rand() * total;
  for (const t of items) {
    r -= weight(t);
    if (r < 0) return t;
  }
  return items[items.length - 1];
}

/** A standard normal sample (Box–Muller). */
const normal = (rand: () => number) => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
const round = (n: number, decimals: number) => Math.round(n * 10 ** decimals) / 10 ** decimals;

export interface DemoPublisher {
  name: string;
  revenue_share: number;
  domains: string[];
}

export function demoPublishers(seed = 7): DemoPublisher[] {
  const rand = prng(seed);
  const names = new Set<string>();
  while (names.size < 40) names.add(`${PREFIXES[Math.floor(rand() * PREFIXES.length)]} ${TOPICS[Math.floor(rand() * TOPICS.length)]}`);
  return [...names].map((name, i) => {
    const slug = name
      .toLowerCase()
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/\s+/g, '');
    const domains = [slug + TLDS[i % TLDS.length]];
    if (rand() < 0.35) domains.push(`m.${slug}${TLDS[(i + 1) % TLDS.length]}`);
    const revenue_share = i === 5 ? DEMO_LOSS_PUBLISHER_SHARE : round(0.55 + Math.floor(rand() * 6) * 0.05, 2);
    return { name, revenue_share, domains };
  });
}

interface DemoZone {
  id: string;
  publisher: DemoPublisher;
  domain: string;
  geo: [string, number, number];
  source: string;
  base: number;
  activity: number;
  fill: number;
  ctr: number;
  tq: number;
  advertisers: Array<{ index: number; share: number }>;
}

function demoZones(publishers: DemoPublisher[], count: number, rand: () => number): DemoZone[] {
  // Bigger publishers own more zones (Zipf-like weights).
  const owners = publishers.map((p, i) => ({ p, w: 1 / (i + 1) ** 0.7 }));
  return Array.from({ length: count }, (_, i) => {
    const publisher = weighted(rand, owners, (o) => o.w).p;
    const first = weighted(rand, [0, 1, 2], (a) => ADVERTISER_WEIGHT[a]);
    const advertisers = [{ index: first, share: 1 }];
    if (rand() < 0.4) {
      const second = (first + 1 + Math.floor(rand() * 2)) % 3;
      advertisers[0].share = 0.65;
      advertisers.push({ index: second, share: 0.35 });
    }
    const badTraffic = rand() < 0.02;
    return {
      id: String(380_000 + i * 37 + Math.floor(rand() * 30)),
      publisher,
      domain: publisher.domains[Math.floor(rand() * publisher.domains.length)],
      geo: weighted(rand, GEOS, (g) => g[1]),
      source: weighted(rand, SOURCES, (s) => s[1])[0],
      base: Math.min(400_000, Math.max(50, Math.exp(7.6 + 1.3 * normal(rand)))),
      activity: 0.3 + rand() * 0.6,
      fill: 0.6 + rand() * 0.35,
      ctr: 0.002 + rand() * 0.025,
      tq: badTraffic ? 0.05 + rand() * 0.25 : 0.55 + rand() * 0.43,
      advertisers,
    };
  });
}

/** The demo rows as ingest items (no margin or p_revenue: the revenue shares derive them). */
export function* demoZoneReportItems(tz: string, options: DemoOptions = {}): Generator<IngestItem> {
  const now = options.now ?? new Date();
  const dayCount = options.days ?? 90;
  const rand = prng(options.seed ?? 20250101);
  const zones = demoZones(demoPublishers(), options.zones ?? 2000, rand);
  const today = todayIn(tz, now);
  const p = zonedParts(now, tz);
  const todayShare = Math.max(0.05, (p.hour * 60 + p.minute) / 1440);
  let line = 0;
  for (let i = dayCount - 1; i >= 0; i--) {
    const date = addDays(today, -i);
    const dayFactor = WEEKDAY[weekdayIndex(date)] * (0.9 + (0.2 * (dayCount - 1 - i)) / Math.max(1, dayCount - 1)) * (i === 0 ? todayShare : 1);
    for (const z of zones) {
      if (rand() > z.activity) continue;
      for (const a of z.advertisers) {
        line++;
        const empty = rand() < 0.01;
        const impressions = empty ? 0 : Math.round(z.base * dayFactor * a.share * (0.8 + rand() * 0.4));
        const monetized = Math.round(impressions * z.fill * (0.95 + rand() * 0.1));
        const clicks = Math.round(monetized * z.ctr * (0.7 + rand() * 0.6));
        const revenue = round((monetized / 1000) * z.geo[2] * ADVERTISER_PRICE[a.index] * (0.85 + rand() * 0.3), 4);
        const tq = rand() < 0.05 ? null : round(Math.min(1, Math.max(0.01, z.tq + (rand() - 0.5) * 0.1)), 3);
        yield {
          line,
          values: {
            date,
            advertiser: FIXED_ADVERTISERS[a.index],
            publisher: z.publisher.name,
            zone_id: z.id,
            geo: z.geo[0],
            source: z.source,
            domain: z.domain,
            impressions,
            monetized_impressions: monetized,
            clicks,
            revenue,
            tq,
          },
        };
      }
    }
  }
}

/**
 * Loads (or reloads: it upserts) the demo zone reports and the demo publishers' revenue
 * shares (already configured shares are kept). `adops seed` calls this.
 */
export async function loadDemoZoneReports(s: Pick<AppServices, 'shares' | 'ingest' | 'config'>, options: DemoOptions = {}): Promise<IngestResult> {
  await s.shares.addMissing(demoPublishers());
  return s.ingest.ingest(demoZoneReportItems(s.config.tz, options));
}

/**
 * When demo data is on and the warehouse has no zone reports, loads the demo (about a second;
 * awaited so the first screens never see a half-empty warehouse).
 */
export async function startZoneReports(s: AppServices): Promise<void> {
  if (!s.config.demo || (await s.warehouse.zoneReports.countRows()) > 0) return;
  const started = performance.now();
  const result = await loadDemoZoneReports(s);
  s.log(`demo: ${result.inserted} zone-report rows loaded in ${Math.round(performance.now() - started)} ms`);
}
