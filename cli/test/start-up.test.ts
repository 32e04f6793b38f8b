// `adops --version` and `--help` start without loading any command module, Ink, React, zod or the
// API client, and a JSON report loads its own command's module and none of the others', the
// screens' or zod (adops takes core through its zod-free entry, @adops/core/lite). Read from what a real run of the built binary loads (module-log.mjs records every
// module), not from a timer; `npm run bench:cli` prints the times. Needs the build (`npx tsc -b
// cli`); skipped with a note when cli/dist is missing.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestServer, type TestServer } from '../../server/test/helpers.js';
import { newConfigDir, runCli } from './helpers.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = path.join(root, 'cli/bin/adops.js');
const built = existsSync(path.join(root, 'cli/dist/main.js'));
if (!built) console.warn('cli/test/start-up.test.ts skipped: cli/dist is missing (run `npx tsc -b cli` first)');

/** The modules (paths from the repository's root, or node: names) one run of `adops args` loads. */
async function modulesLoadedBy(args: string[], env: Record<string, string> = {}): Promise<{ loaded: string[]; code: number | null }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'adops-modules-'));
  const log = path.join(dir, 'modules.txt');
  try {
    const child = spawn(process.execPath, ['--import', pathToFileURL(path.join(root, 'cli/test/module-log.mjs')).href, bin, ...args], {
      env: { ...process.env, ADOPS_CONFIG_DIR: path.join(dir, 'config'), ADOPS_URL: 'http://127.0.0.1:9', ...env, ADOPS_MODULE_LOG: log },
      stdio: 'ignore',
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const urls = new Set((await readFile(log, 'utf8')).split('\n').filter(Boolean));
    return { loaded: [...urls].map((url) => (url.startsWith('file:') ? path.relative(root, fileURLToPath(url)) : url)), code };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const commandModules = (loaded: string[]) => loaded.filter((f) => f.startsWith('cli/dist/commands/'));
const packages = (loaded: string[], names: string[]) => loaded.filter((f) => names.some((n) => f.includes(`node_modules/${n}/`)));

/** Every source file of the CLI (tests included: they run the same modules). */
function cliSources(dir = path.join(root, 'cli/src')): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? cliSources(full) : /\.tsx?$/.test(name) ? [full] : [];
  });
}

it('the CLI takes core only through @adops/core/lite, which loads no zod', () => {
  const whole = cliSources().filter((file) => /from '@adops\/core'/.test(readFileSync(file, 'utf8')));
  expect(whole.map((f) => path.relative(root, f))).toEqual([]);
});

describe.skipIf(!built)('adops start-up', () => {
  for (const args of [['--version'], ['--help']]) {
    it(`adops ${args.join(' ')} loads no command module, Ink, React, zod or the API client`, async () => {
      const { loaded, code } = await modulesLoadedBy(args);
      expect(code).toBe(0);
      expect(loaded).toContain('cli/dist/main.js');
      expect(loaded).toContain('cli/dist/command-table.js');
      expect(commandModules(loaded)).toEqual([]);
      expect(packages(loaded, ['ink', 'react', 'zod'])).toEqual([]);
      expect(loaded.filter((f) => f.startsWith('core/'))).toEqual([]);
    });
  }

  describe('a JSON report', () => {
    let server: TestServer;
    let configDir: string;
    beforeAll(async () => {
      server = await startTestServer();
      configDir = await newConfigDir();
      expect((await runCli(['login', '--email', ADMIN.email], configDir, server.url, { stdin: `${ADMIN.password}\n` })).code).toBe(0);
    });
    afterAll(async () => {
      await server?.close();
    });

    it("loads its own command's module (with the helpers it shares), no other command's, no Ink, React or zod", async () => {
      const { loaded, code } = await modulesLoadedBy(['report', 'zones', '--json'], { ADOPS_CONFIG_DIR: configDir, ADOPS_URL: server.url });
      expect(code).toBe(0);
      const registering: string[] = [];
      for (const file of commandModules(loaded)) {
        const exports = (await import(pathToFileURL(path.join(root, file)).href)) as Record<string, unknown>;
        if (Object.keys(exports).some((name) => /^register[A-Z]/.test(name))) registering.push(file);
      }
      expect(registering).toEqual(['cli/dist/commands/reports.js']);
      expect(packages(loaded, ['ink', 'react', 'zod'])).toEqual([]);
      expect(loaded).toContain('core/dist/lite.js');
    });
  });
});
