// Campaign helpers shared by server, web and cli: the tracking URL built from alias and
// keyword with Meta's URL macros (named as the beacon reads them), and the creator's multipart body.
import type { CampaignFormInput } from './contract/campaigns.js';

/**
 * Tracking parameters filled in by Meta when the ad is served (its URL parameter macros).
 * The macros stay unencoded so Meta recognises and replaces them. The ids, the keyword (`kw`)
 * and the placement carry the names the ad tag's beacon reads (`/api/hit?…&cid=&asid=&adid=&kw=&plc=`),
 * so the landing page forwards its own query string as it is and every visit is attributed.
 */
export const TRACKING_MACROS = [
  ['source', '{{site_source_name}}'],
  ['adid', '{{ad.id}}'],
  ['cid', '{{campaign.id}}'],
  ['asid', '{{adset.id}}'],
  ['ad_name', '{{ad.name}}'],
  ['campaign_name', '{{campaign.name}}'],
  ['adset_name', '{{adset.name}}'],
  ['plc', '{{placement}}'],
] as const;

/** The tracking URL's keyword parameter (the beacon's `kw`). */
export const TRACKING_KEYWORD_PARAM = 'kw';

const OWN_PARAMS = new Set<string>(['alias', TRACKING_KEYWORD_PARAM, ...TRACKING_MACROS.map(([name]) => name)]);

/**
 * The ad's landing link: `baseUrl` with `alias`, `keyword` and the tracking macros added.
 * Existing query parameters of the base URL are kept (ours replace same-named ones).
 * Throws on a base URL that is not http(s).
 */
export function trackingUrl({ baseUrl, alias, keyword }: { baseUrl: string; alias: string; keyword: string }): string {
  const url = new URL(baseUrl.trim());
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('La URL base debe ser http(s)');
  const enc = encodeURIComponent;
  const params = [...url.searchParams].filter(([name]) => !OWN_PARAMS.has(name)).map(([name, value]) => `${enc(name)}=${enc(value)}`);
  params.push(`alias=${enc(alias.trim())}`, `${TRACKING_KEYWORD_PARAM}=${enc(keyword.trim())}`);
  for (const [name, macro] of TRACKING_MACROS) params.push(`${name}=${macro}`);
  return `${url.origin}${url.pathname}?${params.join('&')}${url.hash}`;
}

/**
 * The multipart body of POST /api/create-campaign/: the form's text fields plus the image,
 * an uploaded file (Blob/File) or nothing when `image_url` names a suggestion.
 */
export function campaignFormData(values: CampaignFormInput, image?: Blob | null, filename = 'image'): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || value === null || value === '') continue;
    form.append(name, Array.isArray(value) ? value.join(',') : String(value));
  }
  if (image) form.append('image', image, image instanceof File && image.name ? image.name : filename);
  return form;
}
