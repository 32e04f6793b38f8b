// The bundle budget check on two tiny apps built by Vite like the web UI: one lean, one with a
// deliberately fat import on its login page. The lean one passes; the fat one fails with the
// login line marked and exit code 1 — the check can fail, so a green run means something.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { build } from 'vite';
// @ts-expect-error plain ESM script without types
import { measure } from './size.mjs';

const SCRIPT = path.join(__dirname, 'size.mjs');
let root: string;

/** 300 KB of text gzip cannot shrink much (a deterministic pseudo-random stream). */
function incompressible(bytes: number): string {
  let x = 2463534242;
  let out = '';
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  while (out.length < bytes) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out += alphabet[(x >>> 0) % alphabet.length];
  }
  return out;
}

async function app(name: string, fat: boolean): Promise<string> {
  const dir = path.join(root, name);
  await mkdir(path.join(dir, 'src', 'pages'), { recursive: true });
  await writeFile(path.join(dir, 'index.html'), '<!doctype html><div id="root"></div><script type="module" src="/src/main.js"></script>');
  await writeFile(
    path.join(dir, 'src', 'main.js'),
    "import './style.css';\nconst pages = { login: () => import('./pages/Login.tsx'), dashboard: () => import('./pages/Dashboard.tsx') };\nglobalThis.pages = pages;\n",
  );
  await writeFile(path.join(dir, 'src', 'style.css'), '.a { color: red; }\n');
  await writeFile(path.join(dir, 'src', 'pages', 'Dashboard.tsx'), 'export default function Dashboard() { return "dashboard"; }\n');
  await writeFile(
    path.join(dir, 'src', 'pages', 'Login.tsx'),
    fat
      ? "import blob from '../fat.js';\nexport default function Login() { return blob.length; }\n"
      : 'export default function Login() { return "login"; }\n',
  );
  await writeFile(path.join(dir, 'src', 'fat.js'), `export default ${JSON.stringify(incompressible(300 * 1024))};\n`);
  await build({ root: dir, logLevel: 'silent', configFile: false, build: { outDir: path.join(dir, 'dist'), manifest: true, minify: false } });
  return path.join(dir, 'dist');
}

let lean: string;
let fat: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'adops-size-'));
  lean = await app('lean', false);
  fat = await app('fat', true);
}, 60_000);
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('npm run size', () => {
  test('a lean build is within every budget', () => {
    const results = measure(lean) as Array<{ name: string; figure: number; over: boolean }>;
    expect(results.map((r) => r.over)).toEqual([false, false, false]);
    expect(results.every((r) => r.figure > 0)).toBe(true);
  });

  test('a fat import on the login page puts the login budget over, not the others', () => {
    const results = measure(fat) as Array<{ name: string; figure: number; over: boolean }>;
    expect(results.map((r) => [r.name, r.over])).toEqual([
      ['Login: JS (gzip)', true],
      ['Dashboard, first view: JS (gzip)', false],
      ['CSS (before gzip)', false],
    ]);
    expect(results[0].figure).toBeGreaterThan(85 * 1024);
  });

  test('the command prints each figure and exits 1 when a budget is over, 0 otherwise', async () => {
    const run = promisify(execFile);
    const ok = await run(process.execPath, [SCRIPT, lean]);
    expect(ok.stdout).toMatch(/✓ Login: JS \(gzip\)\s+[\d.]+ KB of\s+85\.0 KB/);
    const failed = await run(process.execPath, [SCRIPT, fat]).then(
      () => null,
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stdout).toMatch(/✗ Login: JS \(gzip\)/);
    expect(failed?.stderr).toContain('Over the bundle budget');
  });
});
