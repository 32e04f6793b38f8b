// Demo referrer traffic: on an empty warehouse, three days of referrer history for the demo
// zones (their own sites' pages, Spanish search keywords, their geo's countries), then a live
// simulator sending a few hits a second. Everything goes through ReferrerService.accept, the
// same path as the beacon and batch ingest (validation, ids, owners, commit, live bus).
// With the Meta sandbox, a share of the visits comes from its delivering ads (their campaign,
// ad set and ad ids, their campaign's keyword, a placement), sized so that each campaign's
// estimated revenue is a fixed multiple of its spend: some campaigns make money, some lose it.
// A small share is invalid traffic as the bot classifier sees it: crawlers (their user agent),
// visits from referrer-spam sites, and now and then a burst from one IP above the per-minute
// rate. The simulator only sends them; the classifier (ReferrerService.acceptVisits, the
// beacon's) is what flags them. Live, now and then a site never seen before sends a few dozen
// people (a new referrer); the simulator opens with one such site and one IP burst, so the demo
// alert rules on both have something to find within minutes of the start.
import { addDays, todayIn } from '@adops/core';
import type { AppServices } from '../../services/index.js';
import { sandboxDailyMetrics, type SandboxAd } from '../meta/index.js';
import { normalizeEvent, type NewReferrerEvent } from '../../services/referrers.js';
import type { BusyZone } from '../../warehouse/index.js';
import { prng } from './prng.js';

export interface TrafficDemoOptions {
  /** Days of history before today. */
  historyDays?: number;
  /** Average history events per day. */
  eventsPerDay?: number;
  /** Simulator tick (ms) and the average events per tick. */
  tickMs?: number;
  eventsPerTick?: number;
  seed?: number;
}

const KEYWORDS = [
  'seguros de coche',
  'hipoteca fija',
  'vuelos baratos',
  'recetas fáciles',
  'móviles baratos',
  'cursos online',
  'préstamos rápidos',
  'tarifas de luz',
  'zapatillas running',
  'hoteles en madrid',
  'alquiler de coches',
  'fibra y móvil',
  'dieta mediterránea',
  'resultados liga',
  'ofertas black friday',
  'seguro de salud',
  'crédito personal',
  'tarjeta de crédito',
  'colchón viscoelástico',
  'aspiradora sin cable',
  'bicicleta eléctrica',
  'clases de inglés',
  'casas rurales',
  'televisor 4k',
  'renta 2025',
  'energía solar',
  'reformas baño',
  'ofertas de empleo',
  'recetas con pollo',
  'horóscopo de hoy',
];
const SECTIONS = ['noticias', 'deportes', 'economia', 'recetas', 'tecnologia', 'viajes', 'salud', 'motor', 'ocio', 'hogar'];
const WORDS = ['mejores', 'guia', 'como', 'elegir', 'trucos', 'ofertas', 'comparativa', 'precio', 'nuevo', 'claves', 'ahorrar', 'top'];
const COUNTRIES = ['ES', 'MX', 'AR', 'CO', 'US', 'CL', 'PE', 'BR', 'FR', 'IT'];
/** Share of the day's traffic by UTC hour (quiet nights, busy evenings). */
const HOURS = [2, 1.5, 1, 1, 1, 1.5, 2.5, 4, 5, 5.5, 5.5, 5.5, 6, 6, 5.5, 5, 5, 5.5, 6, 6.5, 6.5, 5.5, 4, 3];
/** Crawlers' user agents (isbot knows them all). */
const CRAWLERS = [
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)',
  'Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)',
  'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  'python-requests/2.31.0',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/124.0.0.0 Safari/537.36',
];
/** Browsers' user agents (the people). */
const BROWSERS = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
];
/** Hosts of the shipped referrer-spam list (server/assets/referrer-spam). */
const SPAM_HOSTS = ['semalt.com', 'darodar.com', 'buttons-for-website.com', 'ilovevitaly.com', 'free-share-buttons.com', 'social-buttons.com'];
/** Shares of the visits from crawlers and from spam sites. */
const CRAWLER_SHARE = 0.03;
const SPAM_SHARE = 0.02;
/** A burst: hits from one IP in one minute beyond the classifier's rate (so the last of them are flagged). */
const BURST_EXTRA = { min: 20, spread: 60 };
/** History days with a burst (every third day); live, the chance of one per minute. */
const BURST_EVERY_DAYS = 3;
const LIVE_BURSTS_PER_MINUTE = 1 / 15;
/** Live burst hits sent per tick. */
const BURST_PER_TICK = 16;
/** A new referrer: people from a site never seen before, about one an hour, a few dozen visits over a couple of minutes. */
const NEW_REFERRERS_PER_MINUTE = 1 / 60;
const NEW_REFERRER_VISITS = { min: 25, spread: 20 };
/** The chance a tick sends the new referrer's next visit (4 ticks a second: ~40 s for 30 visits). */
const NEW_REFERRER_PER_TICK = 0.2;
const NEW_SITE_WORDS = ['ofertas', 'chollos', 'noticias', 'viral', 'descuentos', 'sorteos', 'trucos', 'ahorro'];

/** A visit as it arrives: the event and its user agent (the classifier reads both). */
interface DemoVisit {
  event: NewReferrerEvent;
  userAgent: string | null;
}

/** Used when zone_report holds no zones (demo reports off or not loaded). */
const FALLBACK_ZONES: BusyZone[] = [
  { zone_id: '380001', publisher: '', domain: 'diariodeportes.com', geo: 'ES', impressions: 50 },
  { zone_id: '380038', publisher: '', domain: 'portalrecetas.es', geo: 'ES', impressions: 30 },
  { zone_id: '380075', publisher: '', domain: 'revistamotor.com.mx', geo: 'MX', impressions: 20 },
];

function pick<T>(rand: () => number, items: readonly T[]): T {
  return items[Math.floor(rand() * items.length)];
}

/** Zones weighted by traffic (square root, so small zones still show up). */
function zonePicker(zones: readonly BusyZone[], rand: () => number): () => BusyZone {
  const weights = zones.map((z) => Math.sqrt(Math.max(1, z.impressions)));
  const total = weights.reduce((a, b) => a + b, 0);
  return () => {
    let r = rand() * total;
    for (let i = 0; i < zones.length; i++) {
      r -= weights[i];
      if (r < 0) return zones[i];
    }
    return zones[zones.length - 1];
  };
}

const PLACEMENTS = ['Facebook_Mobile_Feed', 'Facebook_Stories', 'Instagram_Feed', 'Instagram_Stories', 'Audience_Network'];
/** Revenue ÷ spend each demo campaign is sized for, in turn: some profitable, some losing. */
const DEMO_ROAS = [1.6, 0.6, 1.3, 0.75, 2.1, 0.5];
/** Euros to the network's dollars in the demo's exchange rates. */
export const DEMO_EUR_RATE = 1.1;

/** An ad the simulator attributes visits to, with its share of all visits. */
interface DemoAd extends SandboxAd {
  share: number;
}

/**
 * The sandbox's delivering ads with each one's share of visits: revenue ≈ share × the zones'
 * revenue (RPV × visits summed over zones), so share = target ROAS × the ad's daily spend ÷ the
 * simulated zones' daily revenue (both averaged over the last week).
 */
async function demoAds(s: AppServices, zones: readonly BusyZone[]): Promise<DemoAd[]> {
  const sandbox = s.campaigns.providers.metaSandbox;
  if (!sandbox) return [];
  const today = todayIn(s.config.tz, new Date());
  const week = { start_date: addDays(today, -7), end_date: addDays(today, -1) };
  const ids = new Set(zones.map((z) => z.zone_id));
  const groups = await s.warehouse.zoneReports.groups({ filters: week, by: ['zone_id'], order: [] });
  const zoneRevenuePerDay = groups.rows.filter((g) => ids.has(g.zone_id ?? '')).reduce((a, g) => a + g.revenue, 0) / 7;
  if (zoneRevenuePerDay <= 0) return [];
  const campaigns = [...new Set(sandbox.ads().map((a) => a.campaign_id))].sort();
  const ads = sandbox
    .ads()
    .filter((a) => a.delivery && (a.delivery.to === null || a.delivery.to >= week.start_date))
    .map((a) => {
      let spend = 0;
      for (let d = 0; d < 7; d++) spend += sandboxDailyMetrics(a.ad_id, addDays(today, -1 - d))?.spend ?? 0;
      const roas = DEMO_ROAS[campaigns.indexOf(a.campaign_id) % DEMO_ROAS.length];
      return { ...a, share: (roas * (spend / 7) * DEMO_EUR_RATE) / zoneRevenuePerDay };
    });
  // At most half the traffic comes from Meta: scale every share alike (ROAS ratios between campaigns stay).
  const total = ads.reduce((a, x) => a + x.share, 0);
  if (total > 0.5) for (const a of ads) a.share *= 0.5 / total;
  return ads;
}

/** Picks the ad a visit at `at` comes from (null: not from Meta), among the ads delivering that day. */
function adPicker(ads: readonly DemoAd[], tz: string): (at: number, rand: () => number) => DemoAd | null {
  return (at, rand) => {
    let r = rand();
    const day = todayIn(tz, new Date(at));
    for (const a of ads) {
      r -= a.share;
      if (r < 0) return a.delivery && a.delivery.from <= day && (a.delivery.to === null || a.delivery.to >= day) ? a : null;
    }
    return null;
  };
}

/** One plausible hit on a zone at an instant (from a Meta ad when `ad` is given; from a spam site's page when `spamHost` is). */
function demoEvent(zone: BusyZone, at: number, rand: () => number, ad: DemoAd | null = null, spamHost?: string, ip?: string): NewReferrerEvent {
  const site = zone.domain || 'example.com';
  const host = rand() < 0.25 ? `m.${site.replace(/^m\./, '')}` : `www.${site.replace(/^(www|m)\./, '')}`;
  const slug = [pick(rand, WORDS), pick(rand, WORDS), pick(rand, WORDS)].join('-');
  const page = `https://${host}/${pick(rand, SECTIONS)}/${slug}-${Math.floor(rand() * 90_000) + 10_000}`;
  const kind = rand();
  // Mostly the publisher's page; sometimes a search referrer or none (referrer policy), with
  // the tag naming its site as the source.
  const referrer = spamHost
    ? `https://${spamHost}/${slug}`
    : kind < 0.88
      ? rand() < 0.2
        ? `${page}?utm_source=${pick(rand, ['facebook', 'google', 'newsletter'])}`
        : page
      : kind < 0.94
        ? 'https://www.google.com/'
        : null;
  const address =
    rand() < 0.1
      ? `2001:db8:${Math.floor(rand() * 0xffff).toString(16)}::${Math.floor(rand() * 0xffff).toString(16)}`
      : `${pick(rand, ['192.0.2', '198.51.100', '203.0.113'])}.${Math.floor(rand() * 200) + 1}`;
  return normalizeEvent(
    {
      zone_id: zone.zone_id,
      referrer,
      parent_domain: kind < 0.88 ? null : site,
      keyword: ad ? ad.keyword : rand() < 0.8 ? pick(rand, KEYWORDS) : null,
      ip: ip ?? address,
      country: rand() < 0.8 && /^[A-Z]{2}$/.test(zone.geo) ? zone.geo : pick(rand, COUNTRIES),
      seen_at: new Date(at).toISOString(),
      ...(ad ? { campaign_id: ad.campaign_id, adset_id: ad.adset_id, ad_id: ad.ad_id, placement: pick(rand, PLACEMENTS) } : {}),
    },
    Math.max(at, Date.now()),
  );
}

/** One visit: mostly a person (from a Meta ad or not); a small share from a crawler or a spam site. */
function demoVisit(zone: BusyZone, at: number, rand: () => number, ad: DemoAd | null): DemoVisit {
  const kind = rand();
  if (kind < CRAWLER_SHARE) return { event: demoEvent(zone, at, rand), userAgent: pick(rand, CRAWLERS) };
  if (kind < CRAWLER_SHARE + SPAM_SHARE) return { event: demoEvent(zone, at, rand, null, pick(rand, SPAM_HOSTS)), userAgent: pick(rand, BROWSERS) };
  return { event: demoEvent(zone, at, rand, ad), userAgent: pick(rand, BROWSERS) };
}

/** `count` hits on one zone from one IP within the minute starting at `minute` (epoch ms), over `seconds`. */
function burst(zone: BusyZone, minute: number, count: number, seconds: number, rand: () => number): DemoVisit[] {
  // An address of the bursts' own (.201–.254): no other visit comes from it, so its visits are the burst's.
  const ip = `${pick(rand, ['192.0.2', '198.51.100', '203.0.113'])}.${Math.floor(rand() * 54) + 201}`;
  const userAgent = pick(rand, BROWSERS);
  return Array.from({ length: count }, (_, i) => ({
    event: demoEvent(zone, minute + 1000 + Math.floor((i * seconds * 1000) / count), rand, null, undefined, ip),
    userAgent,
  }));
}

/** `count` visits from a site never seen before (a made-up host), to one zone, by different people. */
function newReferrer(zone: BusyZone, count: number, rand: () => number): DemoVisit[] {
  const site = `${pick(rand, NEW_SITE_WORDS)}-${pick(rand, WORDS)}-${Math.floor(rand() * 0xfffff).toString(36)}.com`;
  return Array.from({ length: count }, () => {
    const event = demoEvent(zone, Date.now(), rand);
    const slug = [pick(rand, WORDS), pick(rand, WORDS)].join('-');
    return { event: { ...event, referrer: `https://${site}/${slug}`, parent_domain: site }, userAgent: pick(rand, BROWSERS) };
  });
}

/** Instants of `count` hits spread over [from, to) following the hour-of-day curve, sorted. */
function spread(from: number, to: number, count: number, rand: () => number): number[] {
  const out: number[] = [];
  const peak = Math.max(...HOURS);
  while (out.length < count) {
    const at = from + rand() * (to - from);
    if (rand() * peak < HOURS[new Date(at).getUTCHours()]) out.push(Math.floor(at));
  }
  return out.sort((a, b) => a - b);
}

/** The demo's exchange rates: the sandbox account's euros at DEMO_EUR_RATE for the last months, where none is set. */
async function demoRates(s: AppServices): Promise<void> {
  if (!s.campaigns.providers.metaSandbox || s.config.currency === 'EUR') return;
  const set = new Set((await s.profit.rates()).rates.map((r) => `${r.month}|${r.currency}`));
  const today = todayIn(s.config.tz, new Date());
  const months = new Set([0, 31, 62, 93].map((d) => addDays(today, -d).slice(0, 7)));
  const missing = [...months].filter((m) => !set.has(`${m}|EUR`)).map((month) => ({ month, currency: 'EUR', rate: DEMO_EUR_RATE }));
  if (missing.length) await s.profit.setRates(missing);
}

/**
 * Loads the history when the warehouse has no referrer events, then starts the simulator.
 * Returns a stop function (also run on close). Runs in the background; failures are logged.
 */
export function startTrafficDemo(s: AppServices, options: TrafficDemoOptions = {}): () => void {
  const { historyDays = 7, eventsPerDay = 5000, tickMs = 250, eventsPerTick = 1, seed = 20250607 } = options;
  const referrers = s.referrers;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const stop = () => {
    stopped = true;
    clearInterval(timer);
  };
  const loading = (async () => {
    await referrers.refreshZones();
    const found = await s.warehouse.zoneReports.busiestZones(300);
    const zones = found.length > 0 ? found : FALLBACK_ZONES;
    const rand = prng(seed);
    const nextZone = zonePicker(zones, rand);
    const nextAd = adPicker(await demoAds(s, zones), s.config.tz);
    await demoRates(s);
    // A burst is flagged only when the classifier counts per-IP rates; sized just above its rate.
    const rate = s.config.botFilter ? s.config.botIpRatePerMinute : 0;
    const burstSize = (r: () => number) => rate + BURST_EXTRA.min + Math.floor(r() * BURST_EXTRA.spread);
    if ((await referrers.warehouse.countEvents()) === 0) {
      const now = Date.now();
      const dayStart = now - (now % 86_400_000);
      const from = dayStart - historyDays * 86_400_000;
      const count = Math.round(eventsPerDay * ((now - from) / 86_400_000));
      const visits = spread(from, now, count, rand).map((at) => demoVisit(nextZone(), at, rand, nextAd(at, rand)));
      // A burst at a minute of the afternoon of every third day; in time order with the rest (the classifier counts minutes as they come).
      if (rate > 0)
        for (let d = 1; d <= historyDays; d += BURST_EVERY_DAYS) {
          const minute = dayStart - d * 86_400_000 + (12 + Math.floor(rand() * 8)) * 3_600_000 + Math.floor(rand() * 60) * 60_000;
          visits.push(...burst(nextZone(), minute, burstSize(rand), 40, rand));
        }
      visits.sort((a, b) => a.event.seen_ms - b.event.seen_ms);
      for (let i = 0; i < visits.length && !stopped; i += 5000) await referrers.acceptVisits(visits.slice(i, i + 5000));
      s.log(`demo: ${visits.length} referrer events loaded over ${historyDays} days and today`);
    }
    if (stopped) return;
    const live = prng(Date.now() >>> 0);
    let failing = false;
    /** The burst under way: what is left of it to send within its minute. */
    let bursting: DemoVisit[] = [];
    /** The new referrer under way: its visits still to send. */
    let fresh: DemoVisit[] = [];
    const newSite = () => newReferrer(nextZone(), NEW_REFERRER_VISITS.min + Math.floor(live() * NEW_REFERRER_VISITS.spread), live);
    // The simulator opens with a new referrer and, when the classifier counts rates, an IP burst (at the next minute's start).
    fresh = newSite();
    let openingBurst = rate > 0;
    timer = setInterval(() => {
      const now = Date.now();
      // Now and then a burst from one IP starts, early in a minute so it ends within it.
      if (rate > 0 && bursting.length === 0 && now % 60_000 < 20_000 && (openingBurst || live() < (LIVE_BURSTS_PER_MINUTE * tickMs) / 20_000)) {
        bursting = burst(nextZone(), now - (now % 60_000), burstSize(live), 0, live);
        openingBurst = false;
      }
      if (fresh.length === 0 && live() < (NEW_REFERRERS_PER_MINUTE * tickMs) / 60_000) fresh = newSite();
      // 0..2×eventsPerTick hits per tick, eventsPerTick on average, and the burst's next hits.
      const n = Math.floor(live() * (2 * eventsPerTick + 1));
      const visits = Array.from({ length: n }, () => demoVisit(nextZone(), now, live, nextAd(now, live)));
      for (const v of [...bursting.splice(0, BURST_PER_TICK), ...(fresh.length && live() < NEW_REFERRER_PER_TICK ? fresh.splice(0, 1) : [])])
        visits.push({ ...v, event: { ...v.event, seen_ms: now, seen_at: new Date(now).toISOString() } });
      if (visits.length === 0) return;
      referrers.acceptVisits(visits).then(
        () => (failing = false),
        (e: Error) => {
          if (!failing) s.log(`demo: simulated traffic not stored: ${e.message}`);
          failing = true;
        },
      );
    }, tickMs);
    timer.unref();
  })().catch((e: Error) => {
    if (!stopped) s.log(`demo: referrer traffic not started: ${e.message}`);
  });
  // Closing waits for the history loader, so nothing queries a closed warehouse.
  s.onClose.push(() => {
    stop();
    return loading;
  });
  return stop;
}
