import { describe, expect, it } from 'vitest';
import { campaignFormData, trackingUrl } from './campaigns.js';
import { CampaignForm, InsightsQuery } from './contract/campaigns.js';
import { HitQuery } from './contract/referrers.js';

describe('trackingUrl', () => {
  it('adds alias, keyword and every Meta macro, unencoded, to the base URL', () => {
    const url = trackingUrl({ baseUrl: 'https://news.example.com/landing', alias: 'promo1', keyword: 'seguros coche' });
    expect(url).toBe(
      'https://news.example.com/landing?alias=promo1&kw=seguros%20coche' +
        '&source={{site_source_name}}&adid={{ad.id}}&cid={{campaign.id}}&asid={{adset.id}}' +
        '&ad_name={{ad.name}}&campaign_name={{campaign.name}}&adset_name={{adset.name}}&plc={{placement}}',
    );
  });

  it('names the keyword, the ids and the placement as the beacon reads them, so a landing page forwards its query string as it is', () => {
    const url = new URL(trackingUrl({ baseUrl: 'https://news.example.com/landing', alias: 'promo1', keyword: 'seguros coche' }));
    const forwarded = Object.fromEntries([...url.searchParams].filter(([name]) => ['kw', 'cid', 'asid', 'adid', 'plc'].includes(name)));
    expect(Object.keys(forwarded).sort()).toEqual(['adid', 'asid', 'cid', 'kw', 'plc']);
    const beacon = HitQuery.parse({ zone_id: '1', ...forwarded, cid: '120210000000001', asid: '120210000000002', adid: '120210000000003' });
    expect(beacon).toMatchObject({
      kw: 'seguros coche',
      cid: '120210000000001',
      asid: '120210000000002',
      adid: '120210000000003',
      plc: '{{placement}}',
    });
  });

  it('keeps the base URL own parameters and fragment but replaces ones it generates', () => {
    const url = trackingUrl({ baseUrl: 'https://a.example/p?x=1&alias=old&adid=9#top', alias: 'new', keyword: 'kw' });
    const [beforeHash, hash] = url.split('#');
    expect(hash).toBe('top');
    expect(beforeHash.startsWith('https://a.example/p?x=1&alias=new&kw=kw&')).toBe(true);
    expect(beforeHash.match(/alias=/g)).toHaveLength(1);
    expect(beforeHash.match(/[?&]adid=/g)).toHaveLength(1);
  });

  it('encodes hostile alias and keyword so they cannot add parameters or change the host', () => {
    const url = trackingUrl({ baseUrl: 'https://a.example', alias: 'x&cid=1', keyword: 'a#b?c=d' });
    const parsed = new URL(url);
    expect(parsed.host).toBe('a.example');
    expect(parsed.searchParams.get('alias')).toBe('x&cid=1');
    expect(parsed.searchParams.get('kw')).toBe('a#b?c=d');
    expect(parsed.searchParams.getAll('cid')).toEqual(['{{campaign.id}}']);
    expect(parsed.hash).toBe('');
  });

  it('refuses base URLs that are not http(s)', () => {
    expect(() => trackingUrl({ baseUrl: 'javascript:alert(1)', alias: 'a', keyword: 'k' })).toThrow();
    expect(() => trackingUrl({ baseUrl: 'no es una url', alias: 'a', keyword: 'k' })).toThrow();
  });
});

describe('CampaignForm', () => {
  const base = { keyword: 'seguros', headline: 'H', body: 'B', alias: 'a1' };

  it('applies the spec defaults for blank fields', () => {
    const v = CampaignForm.parse({ ...base, daily_budget: '', bid_amount: '', cta: '', objective: '' });
    expect(v).toMatchObject({ daily_budget: 1, bid_amount: 0.05, cta: 'LEARN_MORE', objective: 'OUTCOME_TRAFFIC' });
    expect(v.countries).toEqual(['ES']);
    expect(v.advantage_audience).toBe(false);
  });

  it.each(['0', '-1', '1.234', 'abc', '1e3', '0.00'])('rejects the amount %s', (amount) => {
    expect(CampaignForm.safeParse({ ...base, daily_budget: amount }).success).toBe(false);
  });

  it('accepts a comma as decimal separator', () => {
    expect(CampaignForm.parse({ ...base, bid_amount: '0,12' }).bid_amount).toBe(0.12);
  });

  it.each(['keyword', 'headline', 'body', 'alias'] as const)('requires %s', (field) => {
    const r = CampaignForm.safeParse({ ...base, [field]: '  ' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].path).toEqual([field]);
  });
});

describe('campaignFormData', () => {
  it('sends text fields as strings and the image as a file part', async () => {
    const form = campaignFormData(
      { ...{ keyword: 'k', headline: 'h', body: 'b', alias: 'a' }, daily_budget: 2.5, countries: ['ES', 'PT'], base_url: '' },
      new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' }),
      'foto.png',
    );
    expect(form.get('daily_budget')).toBe('2.5');
    expect(form.get('countries')).toBe('ES,PT');
    expect(form.has('base_url')).toBe(false);
    const file = form.get('image') as File;
    expect(file.name).toBe('foto.png');
    expect(file.size).toBe(3);
    expect(CampaignForm.parse(Object.fromEntries([...form].filter(([k]) => k !== 'image'))).countries).toEqual(['ES', 'PT']);
  });
});

describe('InsightsQuery', () => {
  it('maps the screen labels and defaults to active campaigns', () => {
    expect(InsightsQuery.parse({ from_date: '2025-01-01', to_date: '2025-01-02' }).status).toBe('ACTIVE');
    expect(InsightsQuery.parse({ from_date: '2025-01-01', to_date: '2025-01-02', status: 'Pausadas' }).status).toBe('PAUSED');
    expect(InsightsQuery.parse({ from_date: '2025-01-01', to_date: '2025-01-02', status: 'all' }).status).toBe('ALL');
  });

  it('rejects reversed, impossible and overlong ranges', () => {
    expect(InsightsQuery.safeParse({ from_date: '2025-01-03', to_date: '2025-01-02' }).success).toBe(false);
    expect(InsightsQuery.safeParse({ from_date: '2025-02-30', to_date: '2025-03-02' }).success).toBe(false);
    expect(InsightsQuery.safeParse({ from_date: '01/02/2025', to_date: '2025-03-02' }).success).toBe(false);
    expect(InsightsQuery.safeParse({ from_date: '2020-01-01', to_date: '2025-01-02' }).success).toBe(false);
    expect(InsightsQuery.safeParse({ from_date: '2025-01-01', to_date: '2025-01-02', status: 'DELETED' }).success).toBe(false);
  });
});
