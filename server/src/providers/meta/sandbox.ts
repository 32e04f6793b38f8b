// Local Graph API sandbox (node:http on 127.0.0.1): the Marketing API paths the client uses,
// objects kept in memory, Graph error shapes, deterministic insights, recorded requests and
// failure injection, so the real MetaClient runs in demo mode and in tests.
import http from 'node:http';
import { createHash } from 'node:crypto';
import { listenLocal, readRequest, sendJson, sniffImageType, BodyTooLargeError } from '../http.js';
import { AD_INSIGHT_FIELDS as AD_FIELDS, type GraphErrorBody } from './client.js';

export interface SandboxRequest {
  method: string;
  /** Path without the version, e.g. /act_1/campaigns or /1202…. */
  path: string;
  /** adimages, campaigns, adsets, adcreatives, ads, campaigns.list, delete, update, read. */
  edge: string;
  params: Record<string, unknown>;
  /** HTTP status and JSON answered (filled in when the answer is sent). */
  status?: number;
  answer?: unknown;
}

export interface SandboxObject {
  id: string;
  type: 'campaign' | 'adset' | 'adcreative' | 'ad';
  name: string;
  status: string;
  created_time: string;
  params: Record<string, unknown>;
  /** Days with delivery (campaigns): from (inclusive) .. to (inclusive, null = ongoing). */
  delivery: { from: string; to: string | null } | null;
}

/** A status change Meta received (POST /{id} with a new status): what tests assert the guard did. */
export interface SandboxStatusChange {
  id: string;
  type: SandboxObject['type'];
  from: string;
  to: string;
  at: string;
}

export interface MetaSandboxOptions {
  accessToken: string;
  adAccountId: string;
  /** Largest page the campaigns listing returns (Graph pages its edges). */
  maxPageSize?: number;
  /** Campaigns the ad account already has (with delivery history). */
  seedCampaigns?: number;
  /** Today's date (YYYY-MM-DD, UTC) — the last day that can have delivery. */
  today?: () => string;
  /** The ad account's currency (spend in insights; default EUR, as the creator's budgets). */
  currency?: string;
  /** Meta's smallest daily budget for an ad set billed on impressions, in Graph's units (default 100: 1,00 EUR). */
  minDailyBudget?: number;
}

/** A seeded ad the demo traffic can send visits for: its ids, its campaign's keyword, and when it delivers. */
export interface SandboxAd {
  campaign_id: string;
  adset_id: string;
  ad_id: string;
  keyword: string;
  campaign_name: string;
  delivery: { from: string; to: string | null } | null;
}

const OBJECTIVES = new Set(['OUTCOME_TRAFFIC', 'OUTCOME_SALES', 'OUTCOME_LEADS', 'OUTCOME_ENGAGEMENT', 'OUTCOME_AWARENESS', 'OUTCOME_APP_PROMOTION']);
const STATUSES = new Set(['ACTIVE', 'PAUSED']);
const EFFECTIVE_STATUSES = new Set(['ACTIVE', 'PAUSED', 'DELETED', 'ARCHIVED', 'IN_PROCESS', 'WITH_ISSUES']);
const BID_STRATEGIES = new Set(['LOWEST_COST_WITHOUT_CAP', 'LOWEST_COST_WITH_BID_CAP', 'COST_CAP', 'LOWEST_COST_WITH_MIN_ROAS']);
const BILLING_EVENTS = new Set(['IMPRESSIONS', 'LINK_CLICKS']);
const OPTIMIZATION_GOALS = new Set(['LINK_CLICKS', 'LANDING_PAGE_VIEWS', 'IMPRESSIONS', 'REACH', 'OFFSITE_CONVERSIONS']);
const CAMPAIGN_FIELDS = new Set(['id', 'name', 'effective_status', 'status', 'created_time', 'objective']);
const INSIGHT_FIELDS = new Set(['impressions', 'clicks', 'spend', 'account_currency', 'date_start', 'date_stop']);
const AD_INSIGHT_FIELDS = new Set<string>([...AD_FIELDS, 'date_start', 'date_stop']);
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
const MAX_BODY = 16 * 1024 * 1024;
/** Graph answers these rate limits with HTTP 403; the body's code is what counts. */
const RATE_STATUS = new Set([4, 17, 32, 613]);
/** Meta's rule for a bid cap or cost cap: the daily budget at least this many times the bid. */
export const SANDBOX_BID_BUDGET_RATIO = 5;
const MAX_RECORDED = 500;
const MAX_IMAGES = 200;

class GraphFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: GraphErrorBody,
  ) {
    super(body.message);
  }
}

const ymd = (d: Date) => d.toISOString().slice(0, 10);
const addDays = (day: string, n: number) => ymd(new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000));
const isYmd = (v: unknown): v is string => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) && ymd(new Date(`${v}T00:00:00Z`)) === v;

/** A number in [0, 1) fixed by the text (the same campaign and day always give the same metrics). */
function unit(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0) / 2 ** 32;
}

/** One day of delivery for a campaign: null on days without delivery. */
export function sandboxDailyMetrics(campaignId: string, day: string): { impressions: number; clicks: number; spend: number } | null {
  if (unit(`${campaignId}|${day}|off`) < 0.08) return null;
  const impressions = 300 + Math.floor(unit(`${campaignId}|${day}|imp`) * 15_000);
  const clicks = Math.round(impressions * (0.004 + unit(`${campaignId}|${day}|ctr`) * 0.03));
  const cpm = 1.5 + unit(`${campaignId}|${day}|cpm`) * 6;
  return { impressions, clicks, spend: Math.round(impressions * cpm * 0.1) / 100 };
}

function parseValue(v: string): unknown {
  const t = v.trim();
  if ((t.startsWith('{') && t.endsWith('}')) || (t.startsWith('[') && t.endsWith(']'))) {
    try {
      return JSON.parse(t);
    } catch {
      return v;
    }
  }
  return v;
}

/** Splits "a,b{c,d},e(f,g)" at top-level commas. */
function splitTopLevel(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '{' || ch === '(') depth++;
    if (ch === '}' || ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(current.trim());
      current = '';
    } else current += ch;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

export class MetaSandbox {
  readonly requests: SandboxRequest[] = [];
  readonly objects = new Map<string, SandboxObject>();
  readonly images = new Map<string, Buffer>();
  /** Every status change received (campaigns, ad sets, ads), oldest first. */
  readonly statusChanges: SandboxStatusChange[] = [];
  maxPageSize: number;
  private readonly failures = new Map<string, GraphErrorBody[]>();
  private nextId = 0;
  private version = 'v24.0';
  private trace = 0;
  private readonly account: string;
  private readonly today: () => string;

  private constructor(
    private readonly options: MetaSandboxOptions,
    readonly url: string,
    private readonly closer: () => Promise<void>,
  ) {
    this.account = options.adAccountId.startsWith('act_') ? options.adAccountId : `act_${options.adAccountId}`;
    this.maxPageSize = options.maxPageSize ?? 25;
    this.today = options.today ?? (() => ymd(new Date()));
  }

  static async start(options: MetaSandboxOptions): Promise<MetaSandbox> {
    let sandbox: MetaSandbox | undefined;
    const server = http.createServer((req, res) => {
      sandbox!.handle(req, res).catch((e: Error) => {
        if (!res.headersSent) sendJson(res, 500, { error: { message: e.message, type: 'SandboxError', code: 1 } });
        else res.destroy();
      });
    });
    const { url, close } = await listenLocal(server);
    sandbox = new MetaSandbox(options, url, close);
    sandbox.seed(options.seedCampaigns ?? 24);
    return sandbox;
  }

  close(): Promise<void> {
    return this.closer();
  }

  /** Makes the next `times` calls to `edge` fail with this Graph error (defaults: code 100). */
  failNext(edge: string, error: Partial<GraphErrorBody> = {}, times = 1): void {
    const body: GraphErrorBody = { message: '(#100) Sandbox: fallo simulado', type: 'OAuthException', code: 100, ...error };
    this.failures.set(edge, [...(this.failures.get(edge) ?? []), ...Array.from({ length: times }, () => body)]);
  }

  clearFailures(): void {
    this.failures.clear();
  }

  /** Recorded requests to one edge, oldest first. */
  requestsTo(edge: string): SandboxRequest[] {
    return this.requests.filter((r) => r.edge === edge);
  }

  private id(): string {
    this.nextId++;
    return `1202${String(10_000_000_000_000 + this.nextId * 7919).padStart(14, '0')}`;
  }

  private seed(count: number): void {
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
  private campaignOfAd(ad: SandboxObject): { campaign: SandboxObject; adset: SandboxObject } | null {
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
  private deliveryDays(campaign: SandboxObject, since: string, until: string): string[] {
    if (!campaign.delivery) return [];
    const today = this.today();
    const from = since > campaign.delivery.from ? since : campaign.delivery.from;
    let to = until < today ? until : today;
    if (campaign.delivery.to && campaign.delivery.to < to) to = campaign.delivery.to;
    const days: string[] = [];
    for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
    return days;
  }

  private fail(status: number, message: string, extra: Partial<GraphErrorBody> = {}): never {
    throw new GraphFailure(status, { message, type: 'OAuthException', code: 100, ...extra });
  }

  private missing(field: string): never {
    this.fail(400, `(#100) The parameter ${field} is required`, {
      error_user_title: 'Falta un campo obligatorio',
      error_user_msg: `Falta el campo obligatorio "${field}".`,
    });
  }

  private invalid(field: string, why: string): never {
    this.fail(400, `(#100) Invalid parameter`, {
      error_subcode: 1487390,
      error_user_title: 'Parámetro no válido',
      error_user_msg: `El campo "${field}" no es válido: ${why}.`,
    });
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const u = new URL(req.url ?? '/', 'http://sandbox');
    const match = /^\/(v\d+\.\d+)(\/.*)$/.exec(u.pathname);
    const method = req.method ?? 'GET';
    if (method === 'GET' && u.pathname.startsWith('/adimage-files/')) return this.serveImage(u.pathname.slice(15), res);
    let params: Record<string, unknown> = {};
    for (const [k, v] of u.searchParams) params[k] = parseValue(v);
    let edge = 'unknown';
    let recorded: SandboxRequest | undefined;
    const answer = (status: number, body: unknown) => {
      if (recorded) Object.assign(recorded, { status, answer: body });
      sendJson(res, status, body);
    };
    try {
      if (method === 'POST') {
        const raw = await readRequest(req, MAX_BODY);
        const type = req.headers['content-type'] ?? '';
        if (type.includes('application/json')) {
          const json = raw.length ? (JSON.parse(raw.toString('utf8')) as Record<string, unknown>) : {};
          params = { ...params, ...json };
        } else {
          for (const [k, v] of new URLSearchParams(raw.toString('utf8'))) params[k] = parseValue(v);
        }
      }
      const path = match?.[2] ?? u.pathname;
      this.version = match?.[1] ?? this.version;
      edge = this.edgeOf(method, path);
      recorded = this.record(method, path, edge, params);
      if (!match) this.fail(400, `Unknown path components: ${u.pathname}`, { code: 2500 });
      const token = (req.headers.authorization ?? '').replace(/^(Bearer|OAuth)\s+/i, '') || params.access_token;
      if (token !== this.options.accessToken) this.fail(400, 'Invalid OAuth access token - Cannot parse access token', { code: 190 });
      const queued = this.failures.get(edge);
      if (queued?.length) {
        const error = queued.shift()!;
        throw new GraphFailure(RATE_STATUS.has(error.code ?? 0) ? 403 : 400, { ...error });
      }
      const name = typeof params.name === 'string' ? params.name : '';
      const magic = /#fail:(\w+)/.exec(name);
      if (method === 'POST' && magic?.[1] === edge)
        this.fail(400, `(#100) Sandbox: fallo solicitado en ${edge}`, {
          error_user_title: 'Fallo simulado',
          error_user_msg: `El sandbox de Meta rechazó el paso "${edge}" (solicitado con #fail:${edge}).`,
        });
      answer(200, this.route(method, path, edge, params));
    } catch (e) {
      if (e instanceof GraphFailure) {
        this.trace++;
        answer(e.status, { error: { ...e.body, fbtrace_id: `Sbx${this.trace.toString(36).padStart(8, '0')}` } });
      } else if (e instanceof BodyTooLargeError) {
        sendJson(res, 413, { error: { message: 'Request body too large', type: 'OAuthException', code: 1 } });
      } else if (e instanceof SyntaxError) {
        sendJson(res, 400, { error: { message: 'Malformed JSON body', type: 'OAuthException', code: 100 } });
      } else throw e;
    }
  }

  private edgeOf(method: string, path: string): string {
    const parts = path.split('/').filter(Boolean);
    if (parts.length === 2 && parts[0].startsWith('act_')) return method === 'GET' && parts[1] === 'campaigns' ? 'campaigns.list' : parts[1];
    if (parts.length === 1 && method === 'GET' && parts[0].startsWith('act_')) return 'account';
    if (parts.length === 1) return method === 'DELETE' ? 'delete' : method === 'POST' ? 'update' : 'read';
    return 'unknown';
  }

  private record(method: string, path: string, edge: string, params: Record<string, unknown>): SandboxRequest {
    const shown = { ...params };
    delete shown.access_token;
    if (typeof shown.bytes === 'string') shown.bytes = `[base64, ${shown.bytes.length} caracteres]`;
    const entry: SandboxRequest = { method, path, edge, params: shown };
    this.requests.push(entry);
    if (this.requests.length > MAX_RECORDED) this.requests.splice(0, this.requests.length - MAX_RECORDED);
    return entry;
  }

  private route(method: string, path: string, edge: string, p: Record<string, unknown>): unknown {
    const parts = path.split('/').filter(Boolean);
    if (parts[0]?.startsWith('act_') && parts[0] !== this.account)
      this.fail(
        400,
        `(#100) Unsupported ${method.toLowerCase()} request. Object with ID '${parts[0]}' does not exist, cannot be loaded due to missing permissions, or does not support this operation`,
        { error_subcode: 33 },
      );
    switch (`${method} ${edge}`) {
      case 'POST adimages':
        return this.uploadImage(p);
      case 'DELETE adimages':
        return this.deleteImage(p);
      case 'POST campaigns':
        return this.createCampaign(p);
      case 'POST adsets':
        return this.createAdSet(p);
      case 'POST adcreatives':
        return this.createCreative(p);
      case 'POST ads':
        return this.createAd(p);
      case 'GET campaigns.list':
        return this.listCampaigns(path, p);
      case 'GET insights':
        return this.adInsights(path, p);
      case 'GET account':
        return { id: this.account, account_id: this.account.slice(4), currency: this.options.currency ?? 'EUR' };
      case 'GET minimum_budgets':
        return { data: [this.minimumBudgets()] };
      case 'DELETE delete':
        return this.deleteObject(parts[0]);
      case 'POST update':
        return this.updateObject(parts[0], p);
      case 'GET read':
        return this.readObject(parts[0]);
      default:
        this.fail(400, `(#100) Unsupported ${method.toLowerCase()} request`, { error_subcode: 33 });
    }
  }

  private text(p: Record<string, unknown>, field: string): string {
    const v = p[field];
    if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) this.missing(field);
    if (typeof v !== 'string' && typeof v !== 'number') this.invalid(field, 'debe ser texto');
    return String(v);
  }

  private cents(p: Record<string, unknown>, field: string, min: number): number {
    const raw = this.text(p, field);
    if (!/^\d+$/.test(raw)) this.invalid(field, 'debe ser un número entero en céntimos');
    const n = Number(raw);
    if (n < min) this.invalid(field, `debe ser al menos ${min} céntimos`);
    return n;
  }

  private status(p: Record<string, unknown>): string {
    const status = this.text(p, 'status');
    if (!STATUSES.has(status)) this.invalid('status', 'debe ser ACTIVE o PAUSED');
    return status;
  }

  private existing(id: unknown, type: SandboxObject['type'], field: string): SandboxObject {
    const o = typeof id === 'string' || typeof id === 'number' ? this.objects.get(String(id)) : undefined;
    if (!o || o.type !== type) this.invalid(field, `no existe ningún objeto ${type} con ese id`);
    return o;
  }

  private store(type: SandboxObject['type'], p: Record<string, unknown>, status: string): { id: string } {
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

  private uploadImage(p: Record<string, unknown>): unknown {
    const b64 = this.text(p, 'bytes');
    const bytes = Buffer.from(b64, 'base64');
    if (!bytes.length || !sniffImageType(bytes))
      this.fail(400, '(#100) Invalid image', {
        error_subcode: 1487242,
        error_user_title: 'Imagen no válida',
        error_user_msg: 'El archivo no es una imagen JPEG, PNG o WebP válida.',
      });
    const hash = createHash('md5').update(bytes).digest('hex');
    this.images.set(hash, bytes);
    if (this.images.size > MAX_IMAGES) this.images.delete(this.images.keys().next().value!);
    return { images: { bytes: { hash, url: `${this.url}/adimage-files/${hash}` } } };
  }

  private deleteImage(p: Record<string, unknown>): unknown {
    const hash = this.text(p, 'hash');
    if (!this.images.delete(hash)) this.invalid('hash', 'no existe ninguna imagen con ese hash');
    return { success: true };
  }

  private serveImage(hash: string, res: http.ServerResponse): void {
    const bytes = this.images.get(hash);
    if (!bytes) {
      sendJson(res, 404, { error: { message: 'Not found', code: 100 } });
      return;
    }
    res.writeHead(200, { 'content-type': sniffImageType(bytes) ?? 'application/octet-stream', 'content-length': bytes.length });
    res.end(bytes);
  }

  private createCampaign(p: Record<string, unknown>): unknown {
    this.text(p, 'name');
    const objective = this.text(p, 'objective');
    if (!OBJECTIVES.has(objective)) this.invalid('objective', 'no es un objetivo de campaña válido');
    const status = this.status(p);
    if (!Array.isArray(p.special_ad_categories)) this.missing('special_ad_categories');
    if (p.daily_budget === undefined && p.lifetime_budget === undefined) {
      const sharing = String(p.is_adset_budget_sharing_enabled ?? '');
      if (sharing !== 'true' && sharing !== 'false')
        this.fail(400, '(#100) Must specify True or False in is_adset_budget_sharing_enabled field', {
          error_subcode: 4834011,
          error_user_title: 'Falta la opción de compartir presupuesto',
          error_user_msg: 'Indica true o false en is_adset_budget_sharing_enabled cuando la campaña no tiene presupuesto propio.',
        });
    }
    return this.store('campaign', p, status);
  }

  /** The account's minimum daily budgets by what the ad set is optimised for (Graph's MinimumBudget), in its units. */
  private minimumBudgets(): Record<string, unknown> {
    const imp = this.options.minDailyBudget ?? 100;
    return {
      currency: this.options.currency ?? 'EUR',
      min_daily_budget_imp: imp,
      min_daily_budget_video_views: imp * 2,
      min_daily_budget_high_freq: imp * 5,
      min_daily_budget_low_freq: imp * 40,
    };
  }

  private createAdSet(p: Record<string, unknown>): unknown {
    this.text(p, 'name');
    this.existing(p.campaign_id, 'campaign', 'campaign_id');
    const budget = this.cents(p, 'daily_budget', this.options.minDailyBudget ?? 100);
    const strategy = this.text(p, 'bid_strategy');
    if (!BID_STRATEGIES.has(strategy)) this.invalid('bid_strategy', 'no es una estrategia de puja válida');
    if (strategy === 'LOWEST_COST_WITH_BID_CAP' || strategy === 'COST_CAP') {
      const bid = this.cents(p, 'bid_amount', 1);
      if (budget < bid * SANDBOX_BID_BUDGET_RATIO)
        this.invalid('daily_budget', `debe ser al menos ${SANDBOX_BID_BUDGET_RATIO} veces bid_amount con ${strategy}`);
    }
    if (!BILLING_EVENTS.has(this.text(p, 'billing_event'))) this.invalid('billing_event', 'no es un evento de facturación válido');
    if (!OPTIMIZATION_GOALS.has(this.text(p, 'optimization_goal'))) this.invalid('optimization_goal', 'no es un objetivo de optimización válido');
    const targeting = p.targeting as { geo_locations?: { countries?: unknown }; targeting_automation?: { advantage_audience?: unknown } } | undefined;
    if (!targeting || typeof targeting !== 'object') this.missing('targeting');
    const countries = targeting.geo_locations?.countries;
    if (!Array.isArray(countries) || countries.length === 0) this.missing('targeting.geo_locations');
    const advantage = targeting.targeting_automation?.advantage_audience;
    if (advantage !== 0 && advantage !== 1)
      this.fail(400, '(#100) Advantage audience flag required', {
        error_subcode: 1870227,
        error_user_title: 'Falta la opción de público Advantage+',
        error_user_msg: 'Indica advantage_audience 1 o 0 en targeting.targeting_automation.',
      });
    return this.store('adset', p, this.status(p));
  }

  private createCreative(p: Record<string, unknown>): unknown {
    this.text(p, 'name');
    const spec = p.object_story_spec as { page_id?: unknown; link_data?: Record<string, unknown> } | undefined;
    if (!spec || typeof spec !== 'object') this.missing('object_story_spec');
    this.text(spec as Record<string, unknown>, 'page_id');
    const link = spec.link_data;
    if (!link || typeof link !== 'object') this.missing('object_story_spec.link_data');
    const url = this.text(link, 'link');
    if (!/^https?:\/\//.test(url)) this.invalid('link', 'debe ser una URL http(s)');
    this.text(link, 'message');
    const hash = this.text(link, 'image_hash');
    if (!this.images.has(hash)) this.invalid('image_hash', 'no existe ninguna imagen con ese hash');
    const cta = link.call_to_action as { type?: unknown } | undefined;
    if (cta !== undefined && (typeof cta !== 'object' || typeof cta.type !== 'string')) this.missing('call_to_action.type');
    return this.store('adcreative', p, 'ACTIVE');
  }

  private createAd(p: Record<string, unknown>): unknown {
    this.text(p, 'name');
    this.existing(p.adset_id, 'adset', 'adset_id');
    const creative = p.creative as { creative_id?: unknown } | undefined;
    if (!creative || typeof creative !== 'object') this.missing('creative');
    this.existing(creative.creative_id, 'adcreative', 'creative.creative_id');
    return this.store('ad', p, this.status(p));
  }

  private deleteObject(id: string): unknown {
    if (!this.objects.delete(id))
      this.fail(
        400,
        `(#100) Unsupported delete request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation`,
        { error_subcode: 33 },
      );
    return { success: true };
  }

  private updateObject(id: string, p: Record<string, unknown>): unknown {
    const o = this.objects.get(id);
    if (!o) this.fail(400, `(#100) Unsupported post request. Object with ID '${id}' does not exist`, { error_subcode: 33 });
    if (p.status !== undefined) {
      const status = this.status(p);
      if (o.type === 'campaign' && status !== o.status) {
        const today = this.today();
        o.delivery = status === 'ACTIVE' ? { from: today, to: null } : o.delivery && { ...o.delivery, to: today };
      }
      if (status !== o.status) this.statusChanges.push({ id, type: o.type, from: o.status, to: status, at: new Date().toISOString() });
      o.status = status;
    }
    if (typeof p.name === 'string' && p.name) o.name = p.name;
    return { success: true };
  }

  private readObject(id: string): unknown {
    const o = this.objects.get(id);
    if (!o) this.fail(400, `(#100) Object with ID '${id}' does not exist`, { error_subcode: 33 });
    return { id: o.id, name: o.name, status: o.status, effective_status: o.status, created_time: o.created_time };
  }

  private listCampaigns(path: string, p: Record<string, unknown>): unknown {
    const fields = splitTopLevel(typeof p.fields === 'string' ? p.fields : 'id');
    let insights: { since: string; until: string; fields: string[] } | null = null;
    const plain: string[] = [];
    for (const field of fields) {
      const m = /^insights(?:\.time_range\((.*)\))?(?:\{(.*)\})?$/.exec(field);
      if (m) {
        let range: { since?: unknown; until?: unknown } = {};
        try {
          range = m[1] ? (JSON.parse(m[1].replace(/'/g, '"')) as typeof range) : {};
        } catch {
          this.invalid('time_range', 'no es un objeto JSON');
        }
        const today = this.today();
        const since = m[1] ? range.since : addDays(today, -29);
        const until = m[1] ? range.until : today;
        if (!isYmd(since) || !isYmd(until) || since > until) this.invalid('time_range', 'since y until deben ser fechas y since <= until');
        const sub = m[2] ? splitTopLevel(m[2]) : ['impressions', 'clicks', 'spend'];
        for (const s of sub) if (!INSIGHT_FIELDS.has(s)) this.fail(400, `(#100) ${s} is not valid for fields param.`);
        insights = { since, until, fields: sub };
      } else if (CAMPAIGN_FIELDS.has(field)) plain.push(field);
      else this.fail(400, `(#100) Tried accessing nonexisting field (${field}) on node type (Campaign)`);
    }
    let campaigns = [...this.objects.values()].filter((o) => o.type === 'campaign');
    if (p.effective_status !== undefined) {
      const wanted = p.effective_status;
      if (!Array.isArray(wanted) || wanted.some((s) => !EFFECTIVE_STATUSES.has(String(s))))
        this.invalid('effective_status', 'debe ser una lista de estados');
      campaigns = campaigns.filter((o) => wanted.includes(o.status));
    }
    campaigns.sort((a, b) => b.created_time.localeCompare(a.created_time) || b.id.localeCompare(a.id));
    return this.paged(path, p, campaigns, (o) => {
      const row: Record<string, unknown> = {};
      for (const f of plain)
        row[f] = f === 'effective_status' ? o.status : f === 'objective' ? o.params.objective : (o as unknown as Record<string, unknown>)[f];
      if (!('id' in row)) row.id = o.id;
      if (insights) {
        const totals = this.insights(o, insights.since, insights.until);
        if (totals) {
          const all: Record<string, string> = {
            impressions: String(totals.impressions),
            clicks: String(totals.clicks),
            spend: totals.spend.toFixed(2),
            account_currency: this.options.currency ?? 'EUR',
            date_start: insights.since,
            date_stop: insights.until,
          };
          const shown: Record<string, string> = { date_start: insights.since, date_stop: insights.until };
          for (const f of insights.fields) shown[f] = all[f];
          row.insights = { data: [shown], paging: { cursors: { before: 'MAZDZD', after: 'MAZDZD' } } };
        }
      }
      return row;
    });
  }

  /**
   * One page of `items` as Graph pages an edge: `limit` (at most maxPageSize), an `after`
   * cursor, and `paging.next` — the same query with the next cursor — while more remain.
   */
  private paged<T>(path: string, p: Record<string, unknown>, items: readonly T[], shown: (item: T) => unknown = (item) => item): unknown {
    const requested = p.limit === undefined ? 25 : Number(p.limit);
    if (!Number.isInteger(requested) || requested < 1) this.invalid('limit', 'debe ser un entero positivo');
    const size = Math.min(requested, this.maxPageSize);
    let offset = 0;
    if (p.after !== undefined) {
      offset = Number(Buffer.from(String(p.after), 'base64url').toString('utf8'));
      if (!Number.isInteger(offset) || offset < 0) this.invalid('after', 'cursor no válido');
    }
    const page = items.slice(offset, offset + size);
    const cursor = (n: number) => Buffer.from(String(n)).toString('base64url');
    const paging: Record<string, unknown> = { cursors: { before: cursor(offset), after: cursor(offset + page.length) } };
    if (offset + page.length < items.length) {
      const next = new URLSearchParams();
      for (const [k, v] of Object.entries(p)) next.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
      next.set('after', cursor(offset + page.length));
      paging.next = `${this.url}/${this.version}${path}?${next.toString()}`;
    }
    return { data: page.map(shown), paging };
  }

  /** Sums the campaign's daily delivery inside [since, until]; null without any delivery. */
  private insights(o: SandboxObject, since: string, until: string): { impressions: number; clicks: number; spend: number } | null {
    // A campaign with ads delivers what its ads deliver (the ad-level insights add up to it).
    const ads = [...this.objects.values()].filter((a) => a.type === 'ad' && this.campaignOfAd(a)?.campaign === o).map((a) => a.id);
    let impressions = 0;
    let clicks = 0;
    let cents = 0;
    for (const day of this.deliveryDays(o, since, until)) {
      for (const id of ads.length ? ads : [o.id]) {
        const m = sandboxDailyMetrics(id, day);
        if (!m) continue;
        impressions += m.impressions;
        clicks += m.clicks;
        cents += Math.round(m.spend * 100);
      }
    }
    return impressions > 0 ? { impressions, clicks, spend: cents / 100 } : null;
  }

  /** GET /act_X/insights?level=ad&time_increment=1: one row per ad and day with delivery, by day then ad id, paged like Graph. */
  private adInsights(path: string, p: Record<string, unknown>): unknown {
    if (p.level !== 'ad') this.invalid('level', 'el sandbox solo responde level=ad');
    if (String(p.time_increment) !== '1') this.invalid('time_increment', 'el sandbox solo responde time_increment=1');
    const fields = splitTopLevel(typeof p.fields === 'string' ? p.fields : '');
    for (const f of fields) if (!AD_INSIGHT_FIELDS.has(f)) this.fail(400, `(#100) ${f} is not valid for fields param.`);
    const range = p.time_range as { since?: unknown; until?: unknown } | undefined;
    if (!range || typeof range !== 'object' || !isYmd(range.since) || !isYmd(range.until) || range.since > range.until)
      this.invalid('time_range', 'since y until deben ser fechas y since <= until');
    const rows: Array<Record<string, string>> = [];
    for (const ad of [...this.objects.values()].filter((o) => o.type === 'ad')) {
      const parents = this.campaignOfAd(ad);
      if (!parents) continue;
      for (const day of this.deliveryDays(parents.campaign, range.since, range.until)) {
        const m = sandboxDailyMetrics(ad.id, day);
        if (!m) continue;
        const all: Record<string, string> = {
          campaign_id: parents.campaign.id,
          campaign_name: parents.campaign.name,
          adset_id: parents.adset.id,
          adset_name: parents.adset.name,
          ad_id: ad.id,
          ad_name: ad.name,
          spend: m.spend.toFixed(2),
          impressions: String(m.impressions),
          clicks: String(m.clicks),
          account_currency: this.options.currency ?? 'EUR',
        };
        const row: Record<string, string> = { date_start: day, date_stop: day };
        for (const f of fields) if (f in all) row[f] = all[f];
        rows.push(row);
      }
    }
    rows.sort((a, b) => a.date_start.localeCompare(b.date_start) || (a.ad_id ?? '').localeCompare(b.ad_id ?? ''));
    return this.paged(path, p, rows);
  }
}
