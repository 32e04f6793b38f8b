// The sandbox's ad account, kept in memory: campaigns (seeded with a delivery history), ad
// sets, creatives and ads, uploaded images and the status changes received.
import { addDays, invalid, ymd } from './graph.js';
import type { MetaSandboxOptions, SandboxAd, SandboxObject, SandboxStatusChange } from './types.js';

const SEED_KEYWORDS = [
  'seguros coche',
  'recetas faciles',
  'vuelos baratos',
  'cursos online',
  'prestamos rapidos',
  'hoteles playa',
  'zapatillas running',
  'dieta mediterranea',
  'energia solar',
  'alquiler pisos',
  'moviles libres',
  'viajes rurales',
];

export class GraphAccount {
  readonly objects = new Map<string, SandboxObject>();
  readonly images = new Map<string, Buffer>();
  /** Every status change received (campaigns, ad sets, ads), oldest first. */
  readonly statusChanges: SandboxStatusChange[] = [];
  maxPageSize: number;
  /** The Graph version of the latest request (a page's `next` link repeats it). */
  version = 'v24.0';
  /** The account as Graph names it (act_…). */
  readonly account: string;
  readonly today: () => string;
  private nextId = 0;

  constructor(
    readonly options: MetaSandboxOptions,
    /** The sandbox's base URL (image URLs and paging links point there). */
    readonly url: string,
  ) {
    this.account = options.adAccountId.startsWith('act_') ? options.adAccountId : `act_${options.adAccountId}`;
    this.maxPageSize = options.maxPageSize ?? 25;
    this.today = options.today ?? (() => ymd(new Date()));
  }

  /** The ad account's currency (spend in insights). */
  get currency(): string {
    return this.options.currency ?? 'EUR';
  }

  id(): string {
    this.nextId++;
    return `1202${String(10_000_000_000_000 + this.nextId * 7919).padStart(14, '0')}`;
  }

  seed(count: number): void {
    const today = this.today();
    for (let i = 0; i < count; i++) {
      const created = addDays(today, -(3 + i * 5));
      const paused = i % 3 === 2;
      const neverDelivered = i % 8 === 5;
      const keyword = SEED_KEYWORDS[i % SEED_KEYWORDS.length];
      const id = this.id();
      this.objects.set(id, {
        id,
        type: 'campaign',
        name: `${keyword} - ${created}`,
        status: paused ? 'PAUSED' : 'ACTIVE',
        created_time: `${created}T09:${String(10 + (i % 50)).padStart(2, '0')}:00+0000`,
        params: { objective: i % 4 === 3 ? 'OUTCOME_SALES' : 'OUTCOME_TRAFFIC', keyword },
        delivery: neverDelivered ? null : { from: addDays(created, 1), to: paused ? addDays(created, 15) : null },
      });
      // One or two ad sets, each with one or two ads: their daily delivery makes the campaign's.
      const status = paused ? 'PAUSED' : 'ACTIVE';
      const createdTime = `${created}T09:30:00+0000`;
      for (let j = 0; j < 1 + (i % 2); j++) {
        const adset = this.id();
        this.objects.set(adset, {
          id: adset,
          type: 'adset',
          name: `${keyword} - Conjunto ${j + 1}`,
          status,
          created_time: createdTime,
          params: { campaign_id: id },
          delivery: null,
        });
        for (let k = 0; k < 1 + ((i + j) % 2); k++) {
          const ad = this.id();
          this.objects.set(ad, {
            id: ad,
            type: 'ad',
            name: `${keyword} - Anuncio ${j + 1}.${k + 1}`,
            status,
            created_time: createdTime,
            params: { adset_id: adset },
            delivery: null,
          });
        }
      }
    }
  }

  /** The campaign an ad belongs to (through its ad set), if both still exist. */
  campaignOfAd(ad: SandboxObject): { campaign: SandboxObject; adset: SandboxObject } | null {
    const adset = this.objects.get(String(ad.params.adset_id ?? ''));
    const campaign = adset && this.objects.get(String(adset.params.campaign_id ?? ''));
    return adset && campaign?.type === 'campaign' ? { campaign, adset } : null;
  }

  /** The ads of the account with their campaign's keyword and delivery (the demo traffic attributes visits to them). */
  ads(): SandboxAd[] {
    const out: SandboxAd[] = [];
    for (const o of this.objects.values()) {
      if (o.type !== 'ad') continue;
      const parents = this.campaignOfAd(o);
      if (!parents) continue;
      const keyword = typeof parents.campaign.params.keyword === 'string' ? parents.campaign.params.keyword : parents.campaign.name;
      out.push({
        campaign_id: parents.campaign.id,
        adset_id: parents.adset.id,
        ad_id: o.id,
        keyword,
        campaign_name: parents.campaign.name,
        delivery: parents.campaign.delivery,
      });
    }
    return out;
  }

  /** The days of [since, until] a campaign delivered on (its delivery window, never after today). */
  deliveryDays(campaign: SandboxObject, since: string, until: string): string[] {
    if (!campaign.delivery) return [];
    const today = this.today();
    const from = since > campaign.delivery.from ? since : campaign.delivery.from;
    let to = until < today ? until : today;
    if (campaign.delivery.to && campaign.delivery.to < to) to = campaign.delivery.to;
    const days: string[] = [];
    for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
    return days;
  }

  /** The object of that type an id parameter names; a Graph error otherwise. */
  existing(id: unknown, type: SandboxObject['type'], field: string): SandboxObject {
    const o = typeof id === 'string' || typeof id === 'number' ? this.objects.get(String(id)) : undefined;
    if (!o || o.type !== type) invalid(field, `no existe ningún objeto ${type} con ese id`);
    return o;
  }

  /** Keeps a newly created object under a new id. */
  store(type: SandboxObject['type'], p: Record<string, unknown>, status: string): { id: string } {
    const id = this.id();
    this.objects.set(id, {
      id,
      type,
      name: String(p.name),
      status,
      created_time: new Date().toISOString().replace(/\.\d+Z$/, '+0000'),
      params: p,
      delivery: null,
    });
    return { id };
  }
}
