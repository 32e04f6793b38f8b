// `adops import referrers` counts a line once: the same file again, or the same file grown by
// lines at its end (an export that keeps growing), stores only the new lines — whether the lines
// carry their time or not — while two identical lines of one file are two events, and another
// file with the same text, or a line edited, is new. (Again on ClickHouse: import-reimport.clickhouse.test.ts.)
import { appendFile, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '@adops/core';
import { ADMIN, startTestServer, type TestServer } from '../../server/test/helpers.js';
import { keyedLine, lineKey } from '../src/commands/import.js';
import { newConfigDir, runCli } from './helpers.js';

const d1 = addDays(todayIn('UTC'), -1);

let server: TestServer;
let dir: string;
let tmp: string;
const cli = (args: string[]) => runCli(args, dir, server.url);
const stored = () => server.app.services.referrers.warehouse.countEvents();
const imported = async (file: string) => {
  const r = await cli(['import', 'referrers', '--json', file]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { accepted: number; duplicates: number };
};

beforeAll(async () => {
  server = await startTestServer();
  dir = await newConfigDir();
  tmp = await mkdtemp(path.join(tmpdir(), 'adops-cli-reimport-'));
  expect((await runCli(['login', '--email', ADMIN.email], dir, server.url, { stdin: `${ADMIN.password}\n` })).code).toBe(0);
});
afterAll(() => server?.close());

describe('adops import referrers, the same file again', () => {
  it('a file of 40 lines, imported again with one line appended, stores 41 events in all (not 81)', async () => {
    const line = (i: number) =>
      JSON.stringify({ zone_id: 'grow', referrer: `https://grow.example/${i}`, seen_at: `${d1}T10:${String(i).padStart(2, '0')}:00Z` });
    const file = path.join(tmp, 'grows.ndjson');
    await writeFile(file, `${Array.from({ length: 40 }, (_, i) => line(i)).join('\n')}\n`);
    const before = await stored();
    expect(await imported(file)).toMatchObject({ accepted: 40, duplicates: 0 });
    expect(await imported(file)).toMatchObject({ accepted: 0, duplicates: 40 });
    await appendFile(file, `${line(40)}\n`);
    expect(await imported(file)).toMatchObject({ accepted: 1, duplicates: 40 });
    expect(await stored()).toBe(before + 41);
    // Grown again, the last line without its newline yet: the same, one more.
    await appendFile(file, line(41));
    expect(await imported(file)).toMatchObject({ accepted: 1, duplicates: 41 });
    expect(await stored()).toBe(before + 42);
  });

  it('lines without a time of their own (stamped on arrival) count once too; two identical lines of one file are two events', async () => {
    const same = JSON.stringify({ zone_id: 'notime', referrer: 'https://same.example/' });
    const file = path.join(tmp, 'notime.ndjson');
    await writeFile(file, `${same}\n${same}\n${JSON.stringify({ zone_id: 'notime', keyword: 'k' })}\n`);
    const before = await stored();
    expect(await imported(file)).toMatchObject({ accepted: 3, duplicates: 0 });
    await appendFile(file, `${same}\n`);
    expect(await imported(file)).toMatchObject({ accepted: 1, duplicates: 3 });
    expect(await stored()).toBe(before + 4);
  });

  it('another file with the same lines, or a line edited in place, is new; a line with its own event_id keeps it', async () => {
    const lines = [
      JSON.stringify({ zone_id: 'other', referrer: 'https://a.example/' }),
      JSON.stringify({ zone_id: 'other', referrer: 'https://b.example/' }),
    ];
    const a = path.join(tmp, 'a.ndjson');
    await writeFile(a, `${lines.join('\n')}\n`);
    expect(await imported(a)).toMatchObject({ accepted: 2 });
    const b = path.join(tmp, 'b.ndjson');
    await writeFile(b, `${JSON.stringify({ zone_id: 'other', keyword: 'primera' })}\n${lines.join('\n')}\n`);
    expect(await imported(b)).toMatchObject({ accepted: 3, duplicates: 0 });
    await writeFile(a, `${lines[0]}\n${JSON.stringify({ zone_id: 'other', referrer: 'https://b.example/editada' })}\n`);
    expect(await imported(a)).toMatchObject({ accepted: 1, duplicates: 1 });
    const own = path.join(tmp, 'own.ndjson');
    await writeFile(own, `${JSON.stringify({ event_id: 'mio-1', zone_id: 'other' })}\n`);
    expect(await imported(own)).toMatchObject({ accepted: 1 });
    await writeFile(own, `\n\n${JSON.stringify({ event_id: 'mio-1', zone_id: 'other', keyword: 'otra' })}\n`);
    expect(await imported(own)).toMatchObject({ accepted: 0, duplicates: 1 });
  });

  it('a key is the line as written plus its place; bad lines go to the server as they are', () => {
    const key = () => lineKey('{"zone_id":"z"}', 3, '{"zone_id":"z"}');
    expect(key()).toMatch(/^l:[\w-]{43}$/);
    expect(lineKey('{"zone_id":"z"}', 4, '{"zone_id":"z"}')).not.toBe(key());
    expect(keyedLine('  {"zone_id":"z", "ip":"1.2.3.4"}', key)).toBe(`{"event_id":"${key()}","zone_id":"z", "ip":"1.2.3.4"}`);
    expect(keyedLine('{}', key)).toBe(`{"event_id":"${key()}"}`);
    expect(JSON.parse(keyedLine('{"event_id":null,"zone_id":"z"}', key))).toEqual({ event_id: key(), zone_id: 'z' });
    expect(keyedLine('{"event_id":7,"zone_id":"z"}', key)).toBe('{"event_id":7,"zone_id":"z"}');
    for (const bad of ['{"zone_id": ', '[1,2]', '"texto"', '42']) expect(keyedLine(bad, key)).toBe(bad);
  });
});
