// Meta attribution on referrer events: the beacon's cid, asid, adid, kw and plc (the names the
// campaign creator's tracking URL gives them) and the batch's campaign_id, adset_id, ad_id,
// keyword and placement are validated like every other field and stored on the event.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { trackingUrl } from '@adops/core';
import type { TestServer } from './helpers.js';
import { postBatch, startReferrerServer } from './referrers-fixture.js';

let t: TestServer;
beforeAll(async () => {
  t = await startReferrerServer();
});
afterAll(() => t.close());

const stored = () => t.app.services.warehouse.referrers.eventsAfter(0, Number.MAX_SAFE_INTEGER, 1000);
const attribution = (e: {
  campaign_id?: string | null;
  adset_id?: string | null;
  ad_id?: string | null;
  placement?: string | null;
  keyword: string | null;
}) => ({
  campaign_id: e.campaign_id,
  adset_id: e.adset_id,
  ad_id: e.ad_id,
  placement: e.placement,
  keyword: e.keyword,
});

describe('attribution on the beacon and batches', () => {
  test('a landing page forwarding its tracking URL’s query string to the beacon stores the campaign, ad set, ad, keyword and placement', async () => {
    const landing = new URL(trackingUrl({ baseUrl: 'https://landing.example.com/seguros', alias: 'seg01', keyword: 'seguros coche' }));
    // As Meta serves the ad: its macros replaced.
    const served = landing.search
      .replace('{{campaign.id}}', '120210000000001')
      .replace('{{adset.id}}', '120210000000002')
      .replace('{{ad.id}}', '120210000000003')
      .replace('{{placement}}', 'Facebook_Mobile_Feed');
    const res = await t.fetch(`/api/hit${served}&zone_id=9101`);
    expect(res.status).toBe(204);
    const [e] = (await stored()).filter((x) => x.zone_id === '9101');
    expect(attribution(e)).toEqual({
      campaign_id: '120210000000001',
      adset_id: '120210000000002',
      ad_id: '120210000000003',
      placement: 'Facebook_Mobile_Feed',
      keyword: 'seguros coche',
    });
  });

  test('a macro Meta left unreplaced (an ad preview) and blank values are stored as absent', async () => {
    expect((await t.fetch('/api/hit?zone_id=9102&cid={{campaign.id}}&adid=%20&plc=')).status).toBe(204);
    const [e] = (await stored()).filter((x) => x.zone_id === '9102');
    expect(attribution(e)).toEqual({ campaign_id: null, adset_id: null, ad_id: null, placement: null, keyword: null });
  });

  test.each([
    ['cid', 'x'.repeat(65), 'Campaña: no puede superar 64 caracteres'],
    ['asid', 'a%0Ab', 'Conjunto de anuncios: no puede contener caracteres de control'],
    ['plc', 'Feed%00', 'Ubicación: no puede contener caracteres de control'],
  ])('the beacon refuses a bad %s with 400 in Spanish and stores nothing', async (name, value, detail) => {
    const before = (await stored()).length;
    const res = await t.fetch(`/api/hit?zone_id=9103&${name}=${value}`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toBe(detail);
    expect((await stored()).length).toBe(before);
  });

  test('the beacon refuses a repeated attribution parameter', async () => {
    const res = await t.fetch('/api/hit?zone_id=9104&cid=1&cid=2');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toBe('Campaña: debe indicarse una sola vez');
  });

  test('a batch stores campaign_id, adset_id, ad_id and placement (numbers read as text); a bad one rejects the whole batch naming its line', async () => {
    const ok = await postBatch(t, [
      { zone_id: '9201', keyword: 'vuelos', campaign_id: 1202, adset_id: '1203', ad_id: '1204', placement: 'Instagram_Stories' },
      { zone_id: '9202' },
    ]);
    expect(ok.status).toBe(200);
    const events = (await stored()).filter((x) => x.zone_id.startsWith('92'));
    expect(events.map(attribution)).toEqual([
      { campaign_id: '1202', adset_id: '1203', ad_id: '1204', placement: 'Instagram_Stories', keyword: 'vuelos' },
      { campaign_id: null, adset_id: null, ad_id: null, placement: null, keyword: null },
    ]);
    const before = (await stored()).length;
    const bad = await postBatch(t, [
      { zone_id: '9203', ad_id: '1' },
      { zone_id: '9204', ad_id: 'y'.repeat(65) },
    ]);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { detail: string }).detail).toBe('línea 2: Anuncio: no puede superar 64 caracteres');
    expect((await stored()).length).toBe(before);
  });
});
