import { describe, expect, it } from 'vitest';
import { LIVE_CAP, mergePolled, parseLiveMessage, prependNew, recordKey, type LiveRecord } from './live.js';

function rec(n: number, over: Partial<LiveRecord> = {}): LiveRecord {
  return {
    zone_id: 'z1',
    parent_domain: 'news.example',
    referrer: `https://news.example/p/${n}`,
    seen_at: `2026-03-05T10:00:${String(n % 60).padStart(2, '0')}Z`,
    keyword: 'zapatos',
    ip: '203.0.113.9',
    country: 'ES',
    ...over,
  };
}
const refs = (list: LiveRecord[]) => list.map((r) => r.referrer?.split('/').pop());

describe('recordKey', () => {
  it.each<[string, Partial<LiveRecord>]>([
    ['zone', { zone_id: 'z2' }],
    ['referrer', { referrer: 'https://other.example/' }],
    ['source', { parent_domain: 'other.example' }],
    ['keyword', { keyword: 'botas' }],
    ['ip', { ip: '198.51.100.1' }],
    ['country', { country: 'AR' }],
    ['seen_at', { seen_at: '2026-03-05T11:00:00Z' }],
  ])('differs when the %s differs', (_field, change) => {
    expect(recordKey(rec(1, change))).not.toBe(recordKey(rec(1)));
  });

  it('ignores the id, so the same event from stream and poll matches', () => {
    expect(recordKey(rec(1, { id: 'evt-9' }))).toBe(recordKey(rec(1)));
  });

  it('treats two spellings of the same instant as one', () => {
    expect(recordKey(rec(1, { seen_at: '2026-03-05T10:00:01.000Z' }))).toBe(recordKey(rec(1, { seen_at: '2026-03-05T10:00:01Z' })));
  });

  it('treats a missing field and an empty one alike', () => {
    expect(recordKey(rec(1, { keyword: null }))).toBe(recordKey(rec(1, { keyword: '' })));
  });

  it('does not confuse values that contain the joining characters', () => {
    expect(recordKey(rec(1, { keyword: 'a","b', ip: 'c' }))).not.toBe(recordKey(rec(1, { keyword: 'a', ip: 'b","c' })));
  });
});

describe('prependNew', () => {
  it('puts a new event first', () => {
    expect(refs(prependNew([rec(1)], rec(2)))).toEqual(['2', '1']);
  });

  it('adds a batch in arrival order so the latest ends first', () => {
    expect(refs(prependNew([rec(1)], [rec(2), rec(3)]))).toEqual(['3', '2', '1']);
  });

  it('skips an event already listed and returns the same list', () => {
    const list = [rec(2), rec(1)];
    expect(prependNew(list, { ...rec(1), id: 'other' })).toBe(list);
  });

  it('skips duplicates inside one batch', () => {
    expect(refs(prependNew([], [rec(1), rec(1), rec(2)]))).toEqual(['2', '1']);
  });

  it('caps the list, dropping the oldest', () => {
    expect(refs(prependNew([rec(2), rec(1)], rec(3), 2))).toEqual(['3', '2']);
  });

  it('caps at 5,000 by default', () => {
    const full = Array.from({ length: LIVE_CAP }, (_, i) => rec(i, { seen_at: new Date(Date.UTC(2026, 0, 1) - i * 1000).toISOString() }));
    const next = prependNew(full, rec(1, { seen_at: '2026-06-01T00:00:00Z' }));
    expect(LIVE_CAP).toBe(5000);
    expect(next).toHaveLength(5000);
    expect(next[0].seen_at).toBe('2026-06-01T00:00:00Z');
    expect(next[4999]).toBe(full[4998]);
  });
});

describe('mergePolled', () => {
  it('puts fetched rows ahead of existing ones', () => {
    expect(refs(mergePolled([rec(1)], [rec(3), rec(2)]))).toEqual(['3', '2', '1']);
  });

  it('removes rows present in both, keeping the fetched copy', () => {
    const fetched = [{ ...rec(2), id: 'fresh' }, rec(1)];
    const merged = mergePolled([rec(2), rec(1), rec(0)], fetched);
    expect(refs(merged)).toEqual(['2', '1', '0']);
    expect(merged[0].id).toBe('fresh');
  });

  it('removes duplicates inside the fetched page', () => {
    expect(refs(mergePolled([], [rec(2), rec(2), rec(1)]))).toEqual(['2', '1']);
  });

  it('caps the merged list', () => {
    expect(refs(mergePolled([rec(1), rec(0)], [rec(3), rec(2)], 3))).toEqual(['3', '2', '1']);
  });
});

describe('parseLiveMessage', () => {
  it('reads a record from a stream message', () => {
    const r = rec(1, { id: 7 });
    expect(parseLiveMessage(JSON.stringify(r))).toEqual(r);
  });

  it('turns absent optional fields into null', () => {
    expect(parseLiveMessage('{"zone_id":5,"seen_at":"2026-03-05T10:00:00Z"}')).toEqual({
      zone_id: 5,
      seen_at: '2026-03-05T10:00:00Z',
      parent_domain: null,
      referrer: null,
      keyword: null,
      ip: null,
      country: null,
    });
  });

  it.each(['not json', '[]', 'null', '42', '{"seen_at":"2026-03-05"}', '{"zone_id":"z","seen_at":5}'])('ignores a malformed message: %s', (data) => {
    expect(parseLiveMessage(data)).toBeNull();
  });
});
