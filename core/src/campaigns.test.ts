import { describe, expect, it } from 'vitest';
import { budgetConfirmation, budgetInNetworkCurrency, budgetNeedsConfirmation, budgetProblem, campaignFormData, trackingUrl } from './campaigns.js';
import { type BudgetLimits, CampaignForm, InsightsQuery, campaignFormDetail } from './contract/campaigns.js';
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

const EUR: BudgetLimits = {
  currency: 'EUR',
  decimals: 2,
  min_daily_budget: 1,
  max_daily_budget: 1000,
  confirm_daily_budget_above: 100,
  min_bid: 0.01,
  bid_budget_ratio: 5,
};

describe('budgetProblem: what the ad account takes, said in words', () => {
  it.each([
    [1, 0.05],
    [1000, 200],
    [2.5, 0.5],
    [100.01, 0.01],
  ])('a daily budget of %s with a bid of %s is fine', (daily_budget, bid_amount) => {
    expect(budgetProblem({ daily_budget, bid_amount }, EUR)).toBeNull();
  });

  it.each([
    [1000.01, 0.05, 'El presupuesto diario no puede superar 1.000,00 EUR'],
    [100_000, 0.05, 'El presupuesto diario no puede superar 1.000,00 EUR'],
    [0.99, 0.05, 'El presupuesto diario debe ser de al menos 1,00 EUR'],
    [0, 0.05, 'El presupuesto diario debe ser de al menos 1,00 EUR'],
    [1, 0, 'La puja CPC debe ser de al menos 0,01 EUR'],
    [
      1,
      0.21,
      'Con un presupuesto diario de 1,00 EUR la puja CPC puede ser de 0,20 EUR como mucho (Meta pide un presupuesto de al menos 5 veces la puja)',
    ],
    [
      2.49,
      0.5,
      'Con un presupuesto diario de 2,49 EUR la puja CPC puede ser de 0,49 EUR como mucho (Meta pide un presupuesto de al menos 5 veces la puja)',
    ],
  ])('a daily budget of %s with a bid of %s is refused: %s', (daily_budget, bid_amount, message) => {
    expect(budgetProblem({ daily_budget, bid_amount }, EUR)?.message).toBe(message);
    expect(budgetProblem({ daily_budget, bid_amount }, EUR)?.field).toBe(
      message.includes('la puja') || message.startsWith('La puja') ? 'bid_amount' : 'daily_budget',
    );
  });

  it('speaks in whole units, without decimals, for currencies Meta counts in units', () => {
    const JPY: BudgetLimits = { ...EUR, currency: 'JPY', decimals: 0, min_daily_budget: 150, max_daily_budget: 150_000, min_bid: 1 };
    expect(budgetProblem({ daily_budget: 200_000, bid_amount: 5 }, JPY)?.message).toBe('El presupuesto diario no puede superar 150.000 JPY');
    expect(budgetProblem({ daily_budget: 150.5, bid_amount: 5 }, JPY)?.message).toBe('El presupuesto diario en JPY no lleva decimales');
    expect(budgetProblem({ daily_budget: 151, bid_amount: 31 }, JPY)?.message).toContain('la puja CPC puede ser de 30 JPY como mucho');
  });

  it('asks for confirmation only above the threshold, naming both amounts', () => {
    expect(budgetNeedsConfirmation(100, EUR)).toBe(false);
    expect(budgetNeedsConfirmation(100.01, EUR)).toBe(true);
    expect(budgetConfirmation(150, EUR)).toEqual({
      title: '¿Crear la campaña con 150,00 EUR al día?',
      text: 'El presupuesto diario supera 100,00 EUR. La campaña se crea en pausa; cuando se active podrá gastar 150,00 EUR cada día.',
    });
  });
});

describe('budgetInNetworkCurrency: the budget beside it in the network’s currency', () => {
  const rates = [
    { month: '2026-11', currency: 'EUR', rate: 1.1 },
    { month: '2026-10', currency: 'EUR', rate: 1.2 },
  ];
  it('converts at the month’s rate and says which', () => {
    expect(budgetInNetworkCurrency(67.31, 'EUR', 'USD', rates, '2026-11')).toBe('≈ $74,04 al día en USD (tipo de cambio de Nov 2026)');
    expect(budgetInNetworkCurrency(10, 'eur', 'USD', rates, '2026-10')).toBe('≈ $12,00 al día en USD (tipo de cambio de Oct 2026)');
  });
  it('says nothing when the currencies are the same or the month has no rate: nothing is guessed', () => {
    expect(budgetInNetworkCurrency(10, 'USD', 'USD', rates, '2026-11')).toBeNull();
    expect(budgetInNetworkCurrency(10, 'EUR', 'USD', rates, '2026-12')).toBeNull();
    expect(budgetInNetworkCurrency(10, 'GBP', 'USD', rates, '2026-11')).toBeNull();
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

  it.each([
    ['-1', 'Presupuesto diario: no puede ser negativo'],
    ['1.234', 'Presupuesto diario: «1.234» es ambiguo'],
    ['1.500', 'Presupuesto diario: «1.500» es ambiguo: escribe 1500 si son miles'],
    ['abc', 'Presupuesto diario: escribe solo cifras'],
    ['1e3', 'Presupuesto diario: escribe solo cifras'],
    ['0,123', 'Presupuesto diario: admite como máximo 2 decimales'],
  ])('refuses the daily budget %s in the creator’s words', (amount, detail) => {
    const r = CampaignForm.safeParse({ ...base, daily_budget: amount });
    expect(r.success).toBe(false);
    expect(campaignFormDetail(r.error!)).toContain(detail);
  });

  it.each([
    ['1,50', 1.5],
    ['1.50', 1.5],
    ['1.500,25', 1500.25],
    [2.5, 2.5],
  ])('reads the amount %s as %s', (amount, units) => {
    expect(CampaignForm.parse({ ...base, daily_budget: amount, bid_amount: amount }).bid_amount).toBe(units);
  });

  it.each([
    ['keyword', '', 'Keyword: es obligatorio'],
    ['bid_amount', '0,0,1', 'Puja CPC: tiene más de una coma'],
    ['base_url', 'ftp://x', 'URL base: debe ser una URL http(s) válida'],
    ['fb_page', '12ab', 'Página de Facebook: debe ser el id numérico de una página'],
    ['objective', 'OUTCOME_LEADS', 'Objetivo: debe ser OUTCOME_TRAFFIC u OUTCOME_SALES'],
    ['cta', 'HACK', 'Botón (CTA): no es un botón de Meta'],
    ['countries', 'ESP', 'Países (1.º): «ESP» no es un código de país de 2 letras'],
    ['advantage_audience', 'quizá', 'Público Advantage+: debe ser 1 o 0'],
  ])('names %s by its label, never its key', (field, value, detail) => {
    const r = CampaignForm.safeParse({ ...base, [field]: value });
    expect(campaignFormDetail(r.error!).startsWith(detail)).toBe(true);
    expect(campaignFormDetail(r.error!)).not.toContain(field);
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
