// `adops campaigns list|create` against a live server whose Meta, Pixabay and copy providers
// are their local sandboxes: metrics with filters and totals, the terminal table's marks, and
// creation with suggested copy and a picked or uploaded image (what reaches Meta is checked).
import { stripVTControlCharacters } from 'node:util';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IMAGE_REQUIRED_MESSAGE,
  formatAmount,
  formatDateDMY,
  formatMoney,
  jsonFigures,
  type CampaignInsight,
  type CreatedCampaign,
} from '@adops/core';
import { ADMIN, startTestServer, type TestServer } from '../../server/test/helpers.js';
import type { MetaSandbox } from '../../server/src/sandbox/meta/index.js';
import { fakeTerminal, newConfigDir, runCli } from './helpers.js';
import { NO_DATA_TOOLTIP, aliasFromKeyword } from '../src/commands/campaigns.js';

const IMAGE = fileURLToPath(new URL('../../server/assets/sandbox-images/forest.png', import.meta.url));

let server: TestServer;
let sandbox: MetaSandbox;
let dir: string;
const cli = (args: string[], options?: Parameters<typeof runCli>[3]) => runCli(args, dir, server.url, options);
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const campaignsInSandbox = () => [...sandbox.objects.values()].filter((o) => o.type === 'campaign');

beforeAll(async () => {
  server = await startTestServer();
  sandbox = server.app.services.campaigns.providers.metaSandbox!;
  dir = await newConfigDir();
  expect((await cli(['login', '--email', ADMIN.email], { stdin: `${ADMIN.password}\n` })).code).toBe(0);
});
afterAll(() => server?.close());

describe('adops campaigns list', () => {
  it('--json answers Meta’s campaigns for the status and range, with totals of impressions, clicks and spend', async () => {
    const r = await cli(['campaigns', 'list', '--json', '--status', 'ALL', '--from', day(-30), '--to', day(-1)]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { rows: CampaignInsight[]; total_rows: number; totals: Record<string, unknown> };
    const api = await server.admin();
    const direct = await api.campaigns.insights({ from_date: day(-30), to_date: day(-1), status: 'ALL', page_size: 500 });
    // Every campaign in the server's order, and the server's totals (the CLI sums nothing).
    expect(out.rows.map((c) => c.id)).toEqual(direct.rows.map((c) => c.id));
    expect(out.rows.length).toBeGreaterThan(1);
    expect(out.total_rows).toBe(direct.total_rows);
    // As the API answers them, rounded for machine output (money to the cent, ratios to 4 decimals).
    expect(out.totals).toEqual(jsonFigures(direct.totals));

    const bySpend = JSON.parse(
      (
        await cli([
          'campaigns',
          'list',
          '--json',
          '--status',
          'ALL',
          '--from',
          day(-30),
          '--to',
          day(-1),
          '--sort',
          'account_spend:desc',
          '--limit',
          '2',
        ])
      ).stdout,
    ) as {
      rows: CampaignInsight[];
      limit: number;
    };
    const top = await api.campaigns.insights({ from_date: day(-30), to_date: day(-1), status: 'ALL', sort: 'account_spend:desc', page_size: 2 });
    expect(bySpend.rows.map((c) => c.id)).toEqual(top.rows.map((c) => c.id));
    expect(bySpend.limit).toBe(2);
    const badSort = await cli(['campaigns', 'list', '--json', '--sort', 'budget']);
    expect(badSort.code).toBe(2);
    expect(badSort.stderr).toContain('--sort no válido: budget');

    const paused = JSON.parse((await cli(['campaigns', 'list', '--json', '--status', 'pausadas', '--from', day(-30), '--to', day(-1)])).stdout) as {
      rows: CampaignInsight[];
    };
    expect(paused.rows.length).toBeGreaterThan(0);
    expect(paused.rows.every((c) => c.effective_status === 'PAUSED')).toBe(true);
  });

  it('defaults to active campaigns of yesterday; refuses an unknown status', async () => {
    const r = JSON.parse((await cli(['campaigns', 'list', '--json'])).stdout) as { from_date: string; to_date: string; status: string };
    expect(r).toMatchObject({ from_date: day(-1), to_date: day(-1), status: 'ACTIVE' });
    const bad = await cli(['campaigns', 'list', '--status', 'BORRADAS']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--status no válido: BORRADAS');
  });

  it('at a terminal marks active ✅ and others ⛔, warns about campaigns without metrics and adds Totales', async () => {
    const r = await cli(['campaigns', 'list', '--status', 'ALL', '--from', '2001-01-01', '--to', '2001-01-02'], { isTTY: true });
    expect(r.code).toBe(0);
    const text = stripVTControlCharacters(r.stdout);
    expect(text).toContain('Campañas con métricas (Facebook)');
    expect(text).toMatch(/Estado\s+Campaña\s+ID\s+Impressions\s+Clicks\s+CTR%\s+Gasto\s+CPC\s+CPM\s+Revenue est\. \*\s+Beneficio\s+ROI %\s+Creada/);
    expect(text).toContain('✅ ⚠');
    expect(text).toContain('⛔ ⚠');
    expect(text).toContain(`⚠ ${NO_DATA_TOOLTIP}`);
    // The server's totals: every campaign counted, none with metrics in that range.
    expect(text).toMatch(/Totales\s+\d+ campañas\s+0\s+0\s+-\s+\$0,00\s+-\s+-/);
    expect(text).toMatch(/Página 1 de \d+ · \d+ filas · 20 por página/);
  });
});

describe('adops campaigns list: Rentabilidad’s columns', () => {
  it('with the days’ spend never synced, profit and ROI read “sin sincronizar” (not a figure), and the note names the days', async () => {
    const range = ['--status', 'ALL', '--from', day(-3), '--to', day(-1)];
    const out = JSON.parse((await cli(['campaigns', 'list', ...range, '--json'])).stdout) as {
      rows: CampaignInsight[];
      totals: Record<string, unknown>;
    };
    expect(out.totals).toMatchObject({ unsynced_days: [day(-3), day(-2), day(-1)], spend_unsynced: true, spend_synced_at: null, profit: null });
    const spent = out.rows.filter((r) => r.account_spend > 0);
    expect(spent.length).toBeGreaterThan(0);
    for (const r of spent) expect(r).toMatchObject({ profit: null, roi: null, spend_unsynced: true });

    const text = stripVTControlCharacters((await cli(['campaigns', 'list', ...range], { isTTY: true, columns: 220 })).stdout);
    expect(text).toContain('Revenue, beneficio y ROI · El gasto de Meta no se ha sincronizado nunca');
    expect(text).toContain(`† Gasto de Meta sin sincronizar (del ${formatDateDMY(day(-3))} al ${formatDateDMY(day(-1))})`);
    const row = text.split('\n').find((l) => l.includes(spent[0].id))!;
    expect(row).toContain('sin sincronizar');
  });
});

describe('adops campaigns list: one currency', () => {
  it('shows spend in the network’s currency (Rentabilidad’s, synced and converted) with Meta’s EUR amount beside it, as the web', async () => {
    const api = await server.admin();
    const from = day(-6);
    const to = day(-5);
    const months = [...new Set([from, to].map((d) => d.slice(0, 7)))];
    await api.profit.setRates({ rates: months.map((month) => ({ month, currency: 'EUR', rate: 1.25 })) });
    await api.profit.syncSpend({ start_date: from, end_date: to });
    const range = ['--status', 'ALL', '--from', from, '--to', to];
    const out = JSON.parse((await cli(['campaigns', 'list', ...range, '--json'])).stdout) as { rows: CampaignInsight[] };
    const spent = out.rows.filter((r) => r.account_spend > 0);
    expect(spent.length).toBeGreaterThan(0);
    const text = stripVTControlCharacters((await cli(['campaigns', 'list', ...range, '--limit', '500'], { isTTY: true, columns: 260 })).stdout);
    for (const r of spent) {
      expect(r.spend!).toBeCloseTo(r.account_spend * 1.25, 2);
      const line = text.split('\n').find((l) => l.includes(r.id))!;
      expect(line).toContain(`${formatMoney(r.spend, 'USD')} · ${formatAmount(r.account_spend, 'EUR')}`);
    }
  });
});

describe('adops campaigns create', () => {
  it('with --pick uses the suggested copy and the picked image, creates the campaign paused and records it', async () => {
    const api = await server.admin();
    const copy = await api.campaigns.generateCopy({ keyword: 'viajes baratos' });
    const images = await api.campaigns.imageSuggestions({ query: 'viajes baratos', page: 1 });
    const before = campaignsInSandbox().length;
    const r = await cli(['campaigns', 'create', '--keyword', 'viajes baratos', '--pick', '2', '--json']);
    expect(r.code).toBe(0);
    const created = JSON.parse(r.stdout) as CreatedCampaign;
    expect(created.preview).toMatchObject({ headline: copy.headline, body: copy.body, cta: copy.cta, image_url: images[1].largeImageURL });
    expect(created.tracking_url).toContain(`alias=${aliasFromKeyword('viajes baratos')}`);
    expect(created.tracking_url).toContain('kw=viajes%20baratos');
    // The suggestions went to stderr, so stdout stays one JSON document.
    expect(r.stderr).toContain(`Título: ${copy.headline}`);
    expect(campaignsInSandbox()).toHaveLength(before + 1);
    expect(sandbox.objects.get(created.campaign_id)).toMatchObject({ type: 'campaign', status: 'PAUSED' });
    const local = (await api.campaigns.list()).find((c) => c.campaign_id === created.campaign_id);
    expect(local).toMatchObject({ keyword: 'viajes baratos', created_by: ADMIN.email, headline: copy.headline });
  });

  it('with --image uploads that file and sends the given texts, budget and bid; at a terminal prints the ids and tracking URL', async () => {
    const bytes = await readFile(IMAGE);
    const r = await cli(
      [
        'campaigns',
        'create',
        '--keyword',
        'seguro coche',
        '--headline',
        'Tu seguro al mejor precio',
        '--body',
        'Compara y ahorra hoy.',
        '--cta',
        'SHOP_NOW',
        '--alias',
        'sc1',
        '--base-url',
        'https://landing.example.com/seguros?x=1',
        '--daily-budget',
        '2,50',
        '--bid',
        '0.10',
        '--image',
        IMAGE,
      ],
      { isTTY: true },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const campaignId = /campaign_id:\s+(\d+)/.exec(r.stdout)![1];
    expect(r.stdout).toContain('Campaña creada en pausa para "seguro coche" (alias sc1)');
    expect(r.stdout).toMatch(/URL de seguimiento: https:\/\/landing\.example\.com\/seguros\?x=1&alias=sc1&kw=seguro%20coche/);
    expect([...sandbox.images.values()].some((img) => img.equals(bytes))).toBe(true);
    const local = (await (await server.admin()).campaigns.list()).find((c) => c.campaign_id === campaignId)!;
    expect(local).toMatchObject({ headline: 'Tu seguro al mejor precio', body: 'Compara y ahorra hoy.', daily_budget: 2.5, bid_amount: 0.1 });
    const adset = [...sandbox.objects.values()].find((o) => o.type === 'adset' && o.params.campaign_id === campaignId)!;
    expect(adset.params).toMatchObject({ daily_budget: '250', bid_amount: '10' }); // cents, as Graph form fields
  });

  it('without an image and no terminal lists the suggestions, explains, exits 2 and creates nothing', async () => {
    const before = campaignsInSandbox().length;
    const r = await cli(['campaigns', 'create', '--keyword', 'zapatillas running', '--alias', 'zr']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Imágenes sugeridas:');
    expect(r.stderr).toMatch(/ 1 {2}http:\/\/.+\n/);
    expect(r.stderr).toContain(IMAGE_REQUIRED_MESSAGE);
    expect(campaignsInSandbox()).toHaveLength(before);
  });

  it('reports the server’s refusal: bad input (400) and a Meta failure (502 with Meta’s message), leaving nothing behind', async () => {
    const before = campaignsInSandbox().length;
    const bad = await cli(['campaigns', 'create', '--keyword', 'hoteles', '--pick', '1', '--base-url', 'ftp://x', '--json']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('URL base: debe ser una URL http(s) válida');
    expect(bad.stderr).not.toContain('base_url');
    sandbox.failNext('ads', { message: '(#100) Sandbox: anuncio rechazado' });
    const failed = await cli(['campaigns', 'create', '--keyword', 'hoteles', '--pick', '1', '--json']);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('anuncio rechazado');
    expect(campaignsInSandbox()).toHaveLength(before);
    const missing = await cli(['campaigns', 'create', '--keyword', 'hoteles', '--image', '/nonexistent/x.png']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('No se encuentra la imagen');
  });
});

describe('adops campaigns create: budget and bid', () => {
  const adsetOf = (campaignId: string) => [...sandbox.objects.values()].find((o) => o.type === 'adset' && o.params.campaign_id === campaignId)!;

  it('reads --daily-budget 1,50 and --bid 0,05 the Spanish way and sends 1.50 and 0.05, whatever the machine’s locale', async () => {
    const r = await cli(['campaigns', 'create', '--keyword', 'hoteles playa', '--pick', '1', '--daily-budget', '1,50', '--bid', '0,05', '--json'], {
      env: { LANG: 'en_US.UTF-8', LC_ALL: 'en_US.UTF-8' },
    });
    expect(r.stderr).not.toContain('Error');
    expect(r.code).toBe(0);
    const created = JSON.parse(r.stdout) as CreatedCampaign;
    expect(adsetOf(created.campaign_id).params).toMatchObject({ daily_budget: '150', bid_amount: '5' });
    const local = (await (await server.admin()).campaigns.list()).find((c) => c.campaign_id === created.campaign_id);
    expect(local).toMatchObject({ daily_budget: 1.5, bid_amount: 0.05 });
  });

  it.each([
    [['--daily-budget', '1.500'], 2, 'Presupuesto diario (--daily-budget): «1.500» es ambiguo: escribe 1500 si son miles'],
    [['--bid', '0,0,5'], 2, 'Puja CPC (--bid): tiene más de una coma'],
    [['--daily-budget', '100.000,00'], 1, 'El presupuesto diario no puede superar 1.000,00 EUR'],
    [['--daily-budget', '0,99'], 1, 'El presupuesto diario debe ser de al menos 1,00 EUR'],
    [['--daily-budget', '1', '--bid', '0,50'], 1, 'la puja CPC puede ser de 0,20 EUR como mucho'],
  ])('%j is refused in words (exit %i) and nothing is created', async (amounts, code, message) => {
    const before = campaignsInSandbox().length;
    const r = await cli(['campaigns', 'create', '--keyword', 'hoteles playa', '--pick', '1', '--json', ...amounts]);
    expect(r.code).toBe(code);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toMatch(/daily_budget|bid_amount|céntimos/);
    expect(campaignsInSandbox()).toHaveLength(before);
  });

  it('above 100,00 EUR a day it asks first: without a terminal it needs --yes, with one "n" cancels and "s" creates', async () => {
    const before = campaignsInSandbox().length;
    const args = ['campaigns', 'create', '--keyword', 'hoteles playa', '--pick', '1', '--daily-budget', '150', '--json'];
    const piped = await cli(args);
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain('El presupuesto diario supera 100,00 EUR');
    expect(piped.stderr).toContain('--yes');
    expect(campaignsInSandbox()).toHaveLength(before);

    const answer = async (key: string) => {
      const tty = fakeTerminal();
      const pending = cli(args, { stdinStream: tty });
      await tty.answer(`${key}\r`);
      return pending;
    };
    const no = await answer('n');
    expect(no.code).toBe(130);
    expect(no.stderr).toContain('¿Crear la campaña con 150,00 EUR al día? [s/N]');
    expect(campaignsInSandbox()).toHaveLength(before);
    const yes = await answer('s');
    expect(yes.code).toBe(0);
    expect(adsetOf((JSON.parse(yes.stdout) as CreatedCampaign).campaign_id).params.daily_budget).toBe('15000');

    const confirmed = await cli([...args, '--yes']);
    expect(confirmed.code).toBe(0);
    expect(campaignsInSandbox()).toHaveLength(before + 2);
    // At the threshold itself nobody is asked.
    expect((await cli(['campaigns', 'create', '--keyword', 'hoteles playa', '--pick', '1', '--daily-budget', '100', '--json'])).code).toBe(0);
  });
});
