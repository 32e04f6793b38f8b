// The Marketing API's writes as the sandbox checks them (Meta's required fields, enums, budget
// rules and error codes): images, campaign → ad set → creative → ad, status and name updates,
// deletions, and the account's minimum budgets.
import { createHash } from 'node:crypto';
import { sniffImageType } from '../../providers/http.js';
import type { GraphAccount } from './account.js';
import { fail, invalid, missing, requireCents, requireStatus, requireText } from './graph.js';

const OBJECTIVES = new Set(['OUTCOME_TRAFFIC', 'OUTCOME_SALES', 'OUTCOME_LEADS', 'OUTCOME_ENGAGEMENT', 'OUTCOME_AWARENESS', 'OUTCOME_APP_PROMOTION']);
const BID_STRATEGIES = new Set(['LOWEST_COST_WITHOUT_CAP', 'LOWEST_COST_WITH_BID_CAP', 'COST_CAP', 'LOWEST_COST_WITH_MIN_ROAS']);
const BILLING_EVENTS = new Set(['IMPRESSIONS', 'LINK_CLICKS']);
const OPTIMIZATION_GOALS = new Set(['LINK_CLICKS', 'LANDING_PAGE_VIEWS', 'IMPRESSIONS', 'REACH', 'OFFSITE_CONVERSIONS']);
/** Meta's rule for a bid cap or cost cap: the daily budget at least this many times the bid. */
export const SANDBOX_BID_BUDGET_RATIO = 5;
const MAX_IMAGES = 200;

export function uploadImage(account: GraphAccount, p: Record<string, unknown>): unknown {
  const b64 = requireText(p, 'bytes');
  const bytes = Buffer.from(b64, 'base64');
  if (!bytes.length || !sniffImageType(bytes))
    fail(400, '(#100) Invalid image', {
      error_subcode: 1487242,
      error_user_title: 'Imagen no válida',
      error_user_msg: 'El archivo no es una imagen JPEG, PNG o WebP válida.',
    });
  const hash = createHash('md5').update(bytes).digest('hex');
  account.images.set(hash, bytes);
  if (account.images.size > MAX_IMAGES) account.images.delete(account.images.keys().next().value!);
  return { images: { bytes: { hash, url: `${account.url}/adimage-files/${hash}` } } };
}

export function deleteImage(account: GraphAccount, p: Record<string, unknown>): unknown {
  const hash = requireText(p, 'hash');
  if (!account.images.delete(hash)) invalid('hash', 'no existe ninguna imagen con ese hash');
  return { success: true };
}

export function createCampaign(account: GraphAccount, p: Record<string, unknown>): unknown {
  requireText(p, 'name');
  const objective = requireText(p, 'objective');
  if (!OBJECTIVES.has(objective)) invalid('objective', 'no es un objetivo de campaña válido');
  const status = requireStatus(p);
  if (!Array.isArray(p.special_ad_categories)) missing('special_ad_categories');
  if (p.daily_budget === undefined && p.lifetime_budget === undefined) {
    const sharing = String(p.is_adset_budget_sharing_enabled ?? '');
    if (sharing !== 'true' && sharing !== 'false')
      fail(400, '(#100) Must specify True or False in is_adset_budget_sharing_enabled field', {
        error_subcode: 4834011,
        error_user_title: 'Falta la opción de compartir presupuesto',
        error_user_msg: 'Indica true o false en is_adset_budget_sharing_enabled cuando la campaña no tiene presupuesto propio.',
      });
  }
  return account.store('campaign', p, status);
}

/** The account's minimum daily budgets by what the ad set is optimised for (Graph's MinimumBudget), in its units. */
export function minimumBudgets(account: GraphAccount): Record<string, unknown> {
  const imp = account.options.minDailyBudget ?? 100;
  return {
    currency: account.currency,
    min_daily_budget_imp: imp,
    min_daily_budget_video_views: imp * 2,
    min_daily_budget_high_freq: imp * 5,
    min_daily_budget_low_freq: imp * 40,
  };
}

export function createAdSet(account: GraphAccount, p: Record<string, unknown>): unknown {
  requireText(p, 'name');
  account.existing(p.campaign_id, 'campaign', 'campaign_id');
  const budget = requireCents(p, 'daily_budget', account.options.minDailyBudget ?? 100);
  const strategy = requireText(p, 'bid_strategy');
  if (!BID_STRATEGIES.has(strategy)) invalid('bid_strategy', 'no es una estrategia de puja válida');
  if (strategy === 'LOWEST_COST_WITH_BID_CAP' || strategy === 'COST_CAP') {
    const bid = requireCents(p, 'bid_amount', 1);
    if (budget < bid * SANDBOX_BID_BUDGET_RATIO)
      invalid('daily_budget', `debe ser al menos ${SANDBOX_BID_BUDGET_RATIO} veces bid_amount con ${strategy}`);
  }
  if (!BILLING_EVENTS.has(requireText(p, 'billing_event'))) invalid('billing_event', 'no es un evento de facturación válido');
  if (!OPTIMIZATION_GOALS.has(requireText(p, 'optimization_goal'))) invalid('optimization_goal', 'no es un objetivo de optimización válido');
  const targeting = p.targeting as { geo_locations?: { countries?: unknown }; targeting_automation?: { advantage_audience?: unknown } } | undefined;
  if (!targeting || typeof targeting !== 'object') missing('targeting');
  const countries = targeting.geo_locations?.countries;
  if (!Array.isArray(countries) || countries.length === 0) missing('targeting.geo_locations');
  const advantage = targeting.targeting_automation?.advantage_audience;
  if (advantage !== 0 && advantage !== 1)
    fail(400, '(#100) Advantage audience flag required', {
      error_subcode: 1870227,
      error_user_title: 'Falta la opción de público Advantage+',
      error_user_msg: 'Indica advantage_audience 1 o 0 en targeting.targeting_automation.',
    });
  return account.store('adset', p, requireStatus(p));
}

export function createCreative(account: GraphAccount, p: Record<string, unknown>): unknown {
  requireText(p, 'name');
  const spec = p.object_story_spec as { page_id?: unknown; link_data?: Record<string, unknown> } | undefined;
  if (!spec || typeof spec !== 'object') missing('object_story_spec');
  requireText(spec as Record<string, unknown>, 'page_id');
  const link = spec.link_data;
  if (!link || typeof link !== 'object') missing('object_story_spec.link_data');
  const url = requireText(link, 'link');
  if (!/^https?:\/\//.test(url)) invalid('link', 'debe ser una URL http(s)');
  requireText(link, 'message');
  const hash = requireText(link, 'image_hash');
  if (!account.images.has(hash)) invalid('image_hash', 'no existe ninguna imagen con ese hash');
  const cta = link.call_to_action as { type?: unknown } | undefined;
  if (cta !== undefined && (typeof cta !== 'object' || typeof cta.type !== 'string')) missing('call_to_action.type');
  return account.store('adcreative', p, 'ACTIVE');
}

export function createAd(account: GraphAccount, p: Record<string, unknown>): unknown {
  requireText(p, 'name');
  account.existing(p.adset_id, 'adset', 'adset_id');
  const creative = p.creative as { creative_id?: unknown } | undefined;
  if (!creative || typeof creative !== 'object') missing('creative');
  account.existing(creative.creative_id, 'adcreative', 'creative.creative_id');
  return account.store('ad', p, requireStatus(p));
}

export function deleteObject(account: GraphAccount, id: string): unknown {
  if (!account.objects.delete(id))
    fail(
      400,
      `(#100) Unsupported delete request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation`,
      { error_subcode: 33 },
    );
  return { success: true };
}

export function updateObject(account: GraphAccount, id: string, p: Record<string, unknown>): unknown {
  const o = account.objects.get(id);
  if (!o) fail(400, `(#100) Unsupported post request. Object with ID '${id}' does not exist`, { error_subcode: 33 });
  if (p.status !== undefined) {
    const status = requireStatus(p);
    if (o.type === 'campaign' && status !== o.status) {
      const today = account.today();
      o.delivery = status === 'ACTIVE' ? { from: today, to: null } : o.delivery && { ...o.delivery, to: today };
    }
    if (status !== o.status) account.statusChanges.push({ id, type: o.type, from: o.status, to: status, at: new Date().toISOString() });
    o.status = status;
  }
  if (typeof p.name === 'string' && p.name) o.name = p.name;
  return { success: true };
}

export function readObject(account: GraphAccount, id: string): unknown {
  const o = account.objects.get(id);
  if (!o) fail(400, `(#100) Object with ID '${id}' does not exist`, { error_subcode: 33 });
  return { id: o.id, name: o.name, status: o.status, effective_status: o.status, created_time: o.created_time };
}
