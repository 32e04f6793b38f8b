// Bot and spam traffic apart in the terminal: `adops referrers` and `adops tail` leave flagged
// events out unless --bots (then tail's records say why), and `adops spam` shows and changes the
// referrer-spam list — against a live server that classifies traffic.
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn, type ReferrerLogRecord, type ReferrerRow } from '@adops/core';
import { ADMIN, startTestServer, type TestServer } from '../../server/test/helpers.js';
import { run } from '../src/main.js';
import { newConfigDir, runCli, waitFor } from './helpers.js';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const d1 = addDays(todayIn('UTC'), -1);

let server: TestServer;
let dir: string;
let token: string;
const cli = (args: string[]) => runCli(args, dir, server.url);

async function post(events: object[]) {
  const res = await server.fetch('/api/ingest/referrers', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' },
    body: `${events.map((e) => JSON.stringify(e)).join('\n')}\n`,
  });
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  server = await startTestServer({ botFilter: true });
  token = (await server.admin()).token;
  await post([
    { zone_id: 'cb-1', referrer: 'https://person.example.com/', user_agent: BROWSER, seen_at: `${d1}T08:00:00Z` },
    {
      zone_id: 'cb-1',
      referrer: 'https://crawler.example.com/',
      user_agent: 'Googlebot/2.1 (+http://www.google.com/bot.html)',
      seen_at: `${d1}T09:00:00Z`,
    },
    { zone_id: 'cb-1', referrer: 'https://semalt.com/', user_agent: BROWSER, seen_at: `${d1}T10:00:00Z` },
  ]);
  dir = await newConfigDir();
  expect((await runCli(['login', '--email', ADMIN.email], dir, server.url, { stdin: `${ADMIN.password}\n` })).code).toBe(0);
});
afterAll(() => server?.close());

describe('adops referrers --bots', () => {
  it('leaves bots and referrer spam out by default and lists them with --bots', async () => {
    const plain = await cli(['referrers', '--preset', 'ayer', '--zone', 'cb-', '--json']);
    expect(plain.code).toBe(0);
    expect((JSON.parse(plain.stdout).rows as ReferrerRow[]).map((r) => r.referrer)).toEqual(['https://person.example.com/']);
    const all = await cli(['referrers', '--preset', 'ayer', '--zone', 'cb-', '--bots', '--json']);
    expect(all.code).toBe(0);
    expect((JSON.parse(all.stdout).rows as ReferrerRow[]).map((r) => r.referrer).sort()).toEqual([
      'https://crawler.example.com/',
      'https://person.example.com/',
      'https://semalt.com/',
    ]);
  });
});

describe('adops tail --bots', () => {
  /** `adops tail` running until stopped, its NDJSON records collected. */
  function start(args: string[]) {
    let text = '';
    const stdout = new PassThrough();
    stdout.on('data', (c) => (text += c));
    const stderr = new PassThrough();
    let errText = '';
    stderr.on('data', (c) => (errText += c));
    const stdin = new PassThrough();
    stdin.end();
    const controller = new AbortController();
    const done = run(args, {
      stdout,
      stderr,
      stdin,
      env: { ADOPS_CONFIG_DIR: dir, ADOPS_URL: server.url },
      isTTY: false,
      signal: controller.signal,
    });
    const records = () =>
      text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as ReferrerLogRecord & { reason?: string });
    return { records, stderr: () => errText, stop: () => controller.abort(), done };
  }

  it('follows only human traffic by default; with --bots also the flagged events, with their reason', async () => {
    const human = start(['tail', '--json', '-n', '0', '--zone', 'cb-live']);
    const all = start(['tail', '--json', '-n', '0', '--zone', 'cb-live', '--bots']);
    await waitFor(() => human.stderr().includes('en vivo') && all.stderr().includes('en vivo'), 'the streams to open');
    await post([
      { zone_id: 'cb-live', referrer: 'https://bot.example.com/', user_agent: 'curl/8.5.0' },
      { zone_id: 'cb-live', referrer: 'https://human.example.com/', user_agent: BROWSER },
    ]);
    await waitFor(() => all.records().length >= 2 && human.records().length >= 1, 'the events');
    // Both streams keep order: once a later human visit is here, the bot's would have been too.
    await post([{ zone_id: 'cb-live', referrer: 'https://later.example.com/', user_agent: BROWSER }]);
    await waitFor(() => all.records().length >= 3 && human.records().length >= 2, 'the later visit');
    human.stop();
    all.stop();
    expect(await human.done).toBe(0);
    expect(await all.done).toBe(0);
    expect(human.records().map((r) => r.referrer)).toEqual(['https://human.example.com/', 'https://later.example.com/']);
    expect(all.records().map((r) => [r.referrer, r.reason ?? null])).toEqual([
      ['https://bot.example.com/', 'user_agent'],
      ['https://human.example.com/', null],
      ['https://later.example.com/', null],
    ]);
  });
});

describe('adops spam', () => {
  it('lists the shipped list, adds and removes domains (admins), and refuses a bad domain in Spanish', async () => {
    // Not a terminal: machine output (JSON).
    const list = await cli(['spam', 'list']);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toMatchObject({ source: expect.stringMatching(/Matomo/), added: [], removed: [] });
    const onScreen = await runCli(['spam', 'list'], dir, server.url, { isTTY: true });
    expect(onScreen.stdout).toMatch(/Lista de spam de referrers: [\d.]+ dominios \([\d.]+ de Matomo/);
    const added = await cli(['spam', 'add', 'nuevo-spam.example.com', '--json']);
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ added: ['nuevo-spam.example.com'], removed: [] });
    const removed = await runCli(['spam', 'remove', 'nuevo-spam.example.com', 'semalt.com'], dir, server.url, { isTTY: true });
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain('Añadidos: ninguno');
    expect(removed.stdout).toContain('Quitados: semalt.com');
    const bad = await cli(['spam', 'add', 'no es un dominio']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr.trim()).toBe('El dominio «no es un dominio» no es un nombre de host como spam.example.com');
    expect((await cli(['spam', 'add', 'semalt.com'])).code).toBe(0);
  });
});
