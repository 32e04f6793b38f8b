// The terminal's manners (issue 10): NO_COLOR turns colours off; Ctrl-C ends any screen with
// exit code 130 (a cancelled command, as the help says), q still with 0; a report taller than
// the window is printed after what the terminal shows instead of clearing the screen and its
// scrollback; the built binary answers SIGINT during `adops tail` with 130 too.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import chalk from 'chalk';
import { presetRange, todayIn } from '@adops/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestServer, type TestServer } from '../../server/test/helpers.js';
import { atKeyboard, atRest, newConfigDir, runCli, waitFor } from './helpers.js';

let server: TestServer;
let dir: string;
const cli = (args: string[], options?: Parameters<typeof runCli>[3]) => runCli(args, dir, server.url, options);
const ESC = '\u001b[';

beforeAll(async () => {
  server = await startTestServer();
  dir = await newConfigDir();
  const login = await cli(['login', '--email', ADMIN.email], { stdin: `${ADMIN.password}\n` });
  expect(login.code).toBe(0);
});
afterAll(async () => {
  await server?.close();
});

/** Starts a screen on a fake terminal, waits for its first page and its keyboard, types `keys`, returns the result. */
async function screen(args: string[], keys: string, options: Parameters<typeof runCli>[3] = {}) {
  const kb = await atKeyboard((o) => cli(args, { ...options, ...o }), atRest, 'the screen at rest');
  return kb.quit(keys);
}

describe('colours', () => {
  it('are drawn on a terminal, and NO_COLOR turns them off', async () => {
    const level = chalk.level;
    chalk.level = 1; // as on a colour terminal (the test process's stdout is not one)
    try {
      const coloured = await cli(['finance'], { isTTY: true });
      expect(coloured.code).toBe(0);
      expect(coloured.stdout).toContain(ESC);
      const plain = await cli(['finance'], { isTTY: true, env: { NO_COLOR: '1' } });
      expect(plain.code).toBe(0);
      expect(plain.stdout).not.toContain(ESC);
      expect(plain.stdout).toContain('Revenue mensual - Advertisers');
      expect(chalk.level).toBe(1); // restored for whatever draws next
    } finally {
      chalk.level = level;
    }
  });

  it('a report taller than the terminal never clears the screen or its scrollback', async () => {
    const r = await cli(['finance'], { isTTY: true, rows: 8 });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain(`${ESC}2J`);
    expect(r.stdout).not.toContain(`${ESC}3J`);
    expect(r.stdout.split('\n').length).toBeGreaterThan(10);
  });
});

describe('the reporting time zone', () => {
  it("is the server's, learnt at login and kept with the session; ADOPS_TZ overrides it", async () => {
    const zones = ['Pacific/Kiritimati', 'Pacific/Pago_Pago']; // UTC+14 and UTC−11: one of them is never on UTC's day
    for (const tz of zones) {
      const far = await startTestServer({ tz });
      try {
        const farDir = await newConfigDir();
        const run = (args: string[], options: Parameters<typeof runCli>[3] = {}) => runCli(args, farDir, far.url, options);
        expect((await run(['login', '--email', ADMIN.email], { stdin: `${ADMIN.password}\n` })).code).toBe(0);
        expect(JSON.parse(await readFile(path.join(farDir, 'credentials.json'), 'utf8')).tz).toBe(tz);
        const theirs = JSON.parse((await run(['dashboard', '--json'])).stdout) as { start_date: string; end_date: string };
        const week = presetRange('ultimos7_hoy', new Date(), tz);
        expect([theirs.start_date, theirs.end_date]).toEqual([week.from, week.to]);
        const utc = JSON.parse((await run(['dashboard', '--json'], { env: { ADOPS_TZ: 'UTC' } })).stdout) as { end_date: string };
        expect(utc.end_date).toBe(todayIn('UTC'));
      } finally {
        await far.close();
      }
    }
  });
});

describe('CSV to a pipe', () => {
  it('has no BOM on stdout (`--csv -`), while a file keeps it for spreadsheets', async () => {
    for (const args of [
      ['report', 'zones', '--csv', '-'],
      ['finance', '--csv', '-'],
      ['demand', '--csv', '-'],
    ]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stdout.length, args.join(' ')).toBeGreaterThan(0);
      expect(r.stdout.charCodeAt(0), args.join(' ')).not.toBe(0xfeff);
    }
    const file = path.join(path.dirname(dir), 'zones.csv');
    expect((await cli(['report', 'zones', '--csv', file])).code).toBe(0);
    expect((await readFile(file, 'utf8')).charCodeAt(0)).toBe(0xfeff);
  });
});

describe('Ctrl-C', () => {
  it('ends a report screen with exit code 130; q ends it with 0', async () => {
    const cancelled = await screen(['report', 'zones'], '\u0003');
    expect(cancelled.code).toBe(130);
    expect(cancelled.stderr).toBe('');
    const quit = await screen(['report', 'zones'], 'q');
    expect(quit.code).toBe(0);
  });

  it('after q the output ends its line, so the prompt starts on its own, even in a window shorter than the screen', async () => {
    for (const [command, rows] of [
      [['report', 'zones'], 40],
      [['report', 'zones'], 10],
      [['dashboard'], 12],
    ] as const) {
      const quit = await screen([...command], 'q', { columns: 80, rows });
      expect(quit.code).toBe(0);
      expect(quit.stdout.endsWith('\n'), `${command.join(' ')} at ${rows} rows`).toBe(true);
    }
  });

  it('ends the Dashboard screen with 130', async () => {
    const cancelled = await screen(['dashboard'], '\u0003');
    expect(cancelled.code).toBe(130);
  });

  const root = fileURLToPath(new URL('../..', import.meta.url));
  const bin = path.join(root, 'cli/bin/adops.js');
  it.skipIf(!existsSync(path.join(root, 'cli/dist/main.js')))(
    'SIGINT to `adops tail --json` ends it with 130, having printed what arrived',
    async () => {
      const child = spawn(process.execPath, [bin, 'tail', '--json', '-n', '0'], {
        env: { ...process.env, ADOPS_CONFIG_DIR: dir, ADOPS_URL: server.url },
        stdio: 'pipe',
      });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      await waitFor(() => /tail:/.test(stderr), 'tail to say it is connected');
      child.kill('SIGINT');
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code).toBe(130);
    },
  );
});
