// The campaign components render what a media buyer reads: the feed ad's domain and button
// label, the status markers and no-data tooltip; refresh always picks another page 1–5.
import { describe, expect, test } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { AdPreview, linkDomain } from './AdPreview';
import { NoDataIcon, NO_DATA_TOOLTIP, StatusIcon } from './CampaignStatus';
import { keywordReady, randomPage } from './useSuggestions';

describe('AdPreview', () => {
  test('shows page, texts, the link’s domain in capitals and the CTA’s Spanish label', () => {
    const html = renderToStaticMarkup(
      <AdPreview
        pageName="Ofertas Hoy"
        body="Compara y ahorra."
        headline="Seguros baratos"
        cta="SHOP_NOW"
        imageUrl="https://cdn.example.com/a.png"
        link="https://www.example-news.com/seguros?alias=a&keyword=b&ad_id={{ad.id}}"
      />,
    );
    expect(html).toContain('Ofertas Hoy');
    expect(html).toContain('Compara y ahorra.');
    expect(html).toContain('Seguros baratos');
    expect(html).toContain('>WWW.EXAMPLE-NEWS.COM<');
    expect(html).toContain('>Comprar<');
    expect(html).toContain('src="https://cdn.example.com/a.png"');
  });

  test('without an image or a valid link it says so instead of breaking', () => {
    const html = renderToStaticMarkup(<AdPreview pageName="" body="" headline="" cta="LEARN_MORE" imageUrl={null} link="no es una url" />);
    expect(html).toContain('Sin imagen');
    expect(html).toContain('>Más información<');
    expect(html).not.toContain('<img');
    expect(linkDomain('no es una url')).toBe('');
  });
});

describe('status markers', () => {
  test('ACTIVE is a green tick; any other status a stop sign', () => {
    expect(renderToStaticMarkup(<StatusIcon status="ACTIVE" />)).toContain('✅');
    for (const status of ['PAUSED', 'ARCHIVED', 'WITH_ISSUES', 'SOMETHING_NEW']) {
      const html = renderToStaticMarkup(<StatusIcon status={status} />);
      expect(html).toContain('⛔');
      expect(html).not.toContain('✅');
    }
  });

  test('the no-data warning carries the tooltip as its title', () => {
    const html = renderToStaticMarkup(<NoDataIcon />);
    expect(html).toContain('⚠️');
    expect(html).toContain(`title="${NO_DATA_TOOLTIP}"`);
    expect(NO_DATA_TOOLTIP).toBe('Esta campaña no tiene métricas en el rango de fechas seleccionado');
  });
});

describe('suggestions', () => {
  test('a random page is within 1–5 and never the page already shown', () => {
    for (let current = 1; current <= 5; current++)
      for (const r of [0, 0.2, 0.5, 0.99]) {
        const page = randomPage(current, () => r);
        expect(page).toBeGreaterThanOrEqual(1);
        expect(page).toBeLessThanOrEqual(5);
        expect(page).not.toBe(current);
      }
    expect(new Set([0, 0.2, 0.4, 0.6, 0.8].map((r) => randomPage(null, () => r)))).toEqual(new Set([1, 2, 3, 4, 5]));
  });

  test('only keywords longer than 2 characters (ignoring spaces) ask for suggestions', () => {
    expect(keywordReady('ab')).toBe(false);
    expect(keywordReady('  ab  ')).toBe(false);
    expect(keywordReady('abc')).toBe(true);
  });
});
