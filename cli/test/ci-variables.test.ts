// A CI, CONTINUOUS_INTEGRATION or CI_* variable in the environment (a pipeline job, or a shell that
// exports one) must not change what adops draws: Ink, told it runs in CI, writes nothing until it
// exits, so `adops finance` printed an empty line and a screen stayed blank until q. The variables
// are set before anything loads Ink, as in such a shell.
process.env.CI = 'true';
process.env.CI_PIPELINE_ID = '4711';

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters as strip } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestServer, type TestServer } from '../../server/test/helpers.js';
import { atKeyboard, atRest, newConfigDir, runCli } from './helpers.js';

let server: TestServer;
let dir: string;
const cli = (args: string[], options?: Parameters<typeof runCli>[3]) => runCli(args, dir, server.url, options);

beforeAll(async () => {
  server = await startTestServer();
  dir = await newConfigDir();
  expect((await cli(['login', '--email', ADMIN.email], { stdin: `${ADMIN.password}\n` })).code).toBe(0);
  // 30 zones on one day: two pages of 25 on the report screen.
  const lines = ['date,advertiser,publisher,zone_id,geo,source,domain,impressions,monetized_impressions,clicks,revenue,margin,tq'];
  for (let i = 0; i < 30; i++) lines.push(`2026-01-01,AdNova,Pub ${i % 3},z${i},ES,web,d.com,1000,900,${i},${i + 1},${(i + 1) * 0.3},0.5`);
  const tmp = await mkdtemp(path.join(tmpdir(), 'adops-ci-vars-'));
  const file = path.join(tmp, 'zones.csv');
  await writeFile(file, `${lines.join('\n')}\n`);
  expect((await cli(['import', 'zone-report', file, '--json'])).code).toBe(0);
  await rm(tmp, { recursive: true });
}, 30_000);
afterAll(async () => {
  await server?.close();
});

describe('with CI variables set', () => {
  it('a one-shot report is drawn whole on a terminal', async () => {
    const r = await cli(['finance', '--from', '2026-01-01', '--to', '2026-01-31'], { isTTY: true });
    expect(r.code).toBe(0);
    const text = strip(r.stdout);
    expect(text).toContain('Revenue mensual - Advertisers');
    expect(text).toContain('AdNova');
    expect(process.env.CI).toBe('true'); // hidden only while Ink loads
  });

  it('a screen draws each page as it is shown, not only the last one when it quits', async () => {
    const kb = await atKeyboard((o) => cli(['report', 'zones', '--from', '2026-01-01', '--to', '2026-01-01'], o), atRest, 'page 1');
    await kb.press('n', (f) => f.includes('Página 2 de 2') && atRest(f), 'page 2');
    const r = await kb.quit();
    expect(r.code).toBe(0);
    const text = strip(r.stdout);
    expect(text).toContain('Página 1 de 2 · 30 filas');
    expect(text).toContain('Página 2 de 2 · 30 filas');
  });
});
