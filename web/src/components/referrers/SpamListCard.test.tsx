// The referrer-spam list card shows the network's changes to the maintained list as an admin
// reads them: each domain with what was done and the button that undoes it, a search, 20 a
// page, the counts; a change's message says what it did; the server's detail reads in Spanish.
import { describe, expect, test } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { ApiError, type SpamList } from '@adops/core';
import { errorText } from '../../lib/errors';
import { SpamChangesTable, changeMessage, spamChangeRows } from './SpamListCard';

const noop = () => {};
const list = (added: string[], removed: string[] = []): SpamList => ({
  source: 'Matomo referrer-spam-list (dominio público)',
  shipped: 2300,
  added,
  removed,
  total: 2300 + added.length - removed.length,
});
const domainsIn = (html: string) => [...html.matchAll(/data-domain="([^"]+)" data-kind="([^"]+)"/g)].map(([, d, k]) => `${k}:${d}`);
const buttons = (html: string) => [...html.matchAll(/<button[^>]*>([^<]*)<\/button>/g)].map(([, text]) => text);

describe('SpamChangesTable', () => {
  test('lists added and removed domains by name, each with the button that undoes it', () => {
    const html = renderToStaticMarkup(
      <SpamChangesTable list={list(['zz-spam.example.com', 'a-spam.example.com'], ['semalt.com'])} search="" page={1} onPage={noop} onUndo={noop} />,
    );
    expect(domainsIn(html)).toEqual(['added:a-spam.example.com', 'removed:semalt.com', 'added:zz-spam.example.com']);
    expect(html).toContain('2 añadidos · 1 quitado');
    expect(html).toContain('Añadido por la red');
    expect(html).toContain('Quitado de la lista mantenida');
    expect(buttons(html)).toEqual(['Quitar', 'Volver a marcar', 'Quitar']);
    expect(html).not.toContain('Página'); // one page: no pager
  });

  test('a search keeps the domains containing it (any case) and says how many match', () => {
    const html = renderToStaticMarkup(
      <SpamChangesTable
        list={list(['casino-spam.example.com', 'other.example.org'], ['semalt.com'])}
        search=" CASINO "
        page={1}
        onPage={noop}
        onUndo={noop}
      />,
    );
    expect(domainsIn(html)).toEqual(['added:casino-spam.example.com']);
    expect(html).toContain('1 coincide con «CASINO»');
  });

  test('a search matching nothing says so', () => {
    const html = renderToStaticMarkup(<SpamChangesTable list={list(['a.example.com'])} search="zzz" page={1} onPage={noop} onUndo={noop} />);
    expect(domainsIn(html)).toEqual([]);
    expect(html).toContain('Ningún dominio añadido o quitado contiene «zzz»');
  });

  test('a long list shows 20 a page with the pager; the last page holds the rest', () => {
    const many = Array.from({ length: 45 }, (_, i) => `d${String(i).padStart(2, '0')}.example.com`);
    const first = renderToStaticMarkup(<SpamChangesTable list={list(many)} search="" page={1} onPage={noop} onUndo={noop} />);
    expect(domainsIn(first)).toHaveLength(20);
    expect(domainsIn(first)[0]).toBe('added:d00.example.com');
    expect(first).toContain('Página 1 de 3');
    const last = renderToStaticMarkup(<SpamChangesTable list={list(many)} search="" page={3} onPage={noop} onUndo={noop} />);
    expect(domainsIn(last)).toEqual([
      'added:d40.example.com',
      'added:d41.example.com',
      'added:d42.example.com',
      'added:d43.example.com',
      'added:d44.example.com',
    ]);
    expect(last).toContain('Página 3 de 3');
  });

  test('without changes it says the maintained list is used as it is', () => {
    const html = renderToStaticMarkup(<SpamChangesTable list={list([])} search="" page={1} onPage={noop} onUndo={noop} />);
    expect(html).toContain('La red no ha añadido ni quitado dominios');
    expect(html).not.toContain('<table');
  });

  test('its buttons are disabled while a change is on its way', () => {
    const html = renderToStaticMarkup(<SpamChangesTable list={list(['a.example.com'])} search="" page={1} onPage={noop} onUndo={noop} busy />);
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>Quitar<\/button>/);
  });
});

describe('spamChangeRows', () => {
  test('sorts added and removed domains together by name', () => {
    expect(spamChangeRows(list(['b.com'], ['a.com', 'c.com']), '').map((r) => r.domain)).toEqual(['a.com', 'b.com', 'c.com']);
  });
});

describe('changeMessage', () => {
  const before = list(['mine.example.com'], ['semalt.com']);
  test.each([
    [
      'a new domain',
      'add',
      ' New.Example.com ',
      list(['mine.example.com', 'new.example.com'], ['semalt.com']),
      '✅ new.example.com se marca como spam desde ahora',
    ],
    [
      'a maintained domain taken out before',
      'add',
      'semalt.com',
      list(['mine.example.com']),
      '✅ semalt.com vuelve a marcarse como spam (lista mantenida)',
    ],
    ['a maintained domain already flagged', 'add', 'darodar.com', before, '✅ darodar.com ya se marcaba como spam'],
    ['an added domain taken out', 'remove', 'mine.example.com', list([], ['semalt.com']), '✅ mine.example.com ya no se marca como spam'],
    [
      'a maintained domain taken out',
      'remove',
      'darodar.com',
      list(['mine.example.com'], ['darodar.com', 'semalt.com']),
      '✅ darodar.com ya no se marca como spam (queda fuera de la lista mantenida)',
    ],
    ['a domain never listed', 'remove', 'nobody.example.com', before, '✅ nobody.example.com no estaba en la lista'],
  ] as const)('%s', (_what, verb, domain, after, text) => {
    expect(changeMessage(domain, verb, before, after)).toBe(text);
  });
});

describe('the server’s refusal', () => {
  test('reads as the server says it: a whole sentence naming the domain, no field key or list place', () => {
    const detail = 'El dominio «x y» no es un nombre de host como spam.example.com';
    expect(errorText(new ApiError(400, detail), 'x')).toBe(detail);
  });
});
