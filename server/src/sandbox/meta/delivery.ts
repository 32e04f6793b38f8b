// Deterministic delivery: the same ad (or campaign) and day always give the same impressions,
// clicks and spend, so insights, the spend sync and the demo traffic agree without storing any.
import { createHash } from 'node:crypto';
import type { GraphAccount } from './account.js';
import type { SandboxObject } from './types.js';

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

/** Sums the campaign's daily delivery inside [since, until]; null without any delivery. */
export function campaignDelivery(
  account: GraphAccount,
  o: SandboxObject,
  since: string,
  until: string,
): { impressions: number; clicks: number; spend: number } | null {
  // A campaign with ads delivers what its ads deliver (the ad-level insights add up to it).
  const ads = [...account.objects.values()].filter((a) => a.type === 'ad' && account.campaignOfAd(a)?.campaign === o).map((a) => a.id);
  let impressions = 0;
  let clicks = 0;
  let cents = 0;
  for (const day of account.deliveryDays(o, since, until)) {
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
