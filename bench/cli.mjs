// `npm run bench:cli` (prints figures; not a test): wall time of the installed `adops` command
// as a person or a script runs it — `--version`, `--help`, a page of a JSON report, the whole
// 7-day zone report and `dashboard --json` against a demo server — beside bare `node -e 0`, with
// the ratio and its target (issue 27: the program's own help and version within 2× node, a JSON
// report within 3×; the target is on a one-page report, since the whole report's time is mostly
// the server's answer and its thousands of rows).
// The runs are interleaved (node, then each command, BENCH_RUNS rounds, default 10) so a busy
// machine slows every figure alike; each figure is the median of its runs. The server runs as a
// child process on a temp data dir.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ADMIN = { email: 'bench@adops.local', password: 'bench-pass-123' };
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const run = promisify(execFile);

async function startServer(dataDir) {
  const child = spawn(process.execPath, [path.join(root, 'server/dist/main.js')], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      ADOPS_DATA_DIR: dataDir,
      ADOPS_DEMO: '1',
      ADOPS_LOG: 'silent',
      ADOPS_ADMIN_EMAIL: ADMIN.email,
      ADOPS_ADMIN_PASSWORD: ADMIN.password,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let output = '';
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const m = /listening on (http:\/\/\S+?)\s/.exec(output);
      if (m) resolve(m[1].replace('localhost', '127.0.0.1'));
    });
    child.stderr.on('data', (c) => (output += c));
    child.once('exit', (code) => reject(new Error(`server exited (${code}): ${output}`)));
    setTimeout(() => reject(new Error(`server did not start: ${output}`)), 60_000);
  });
  return { child, exited, url };
}

/** Wall time in ms of one run of a command. */
async function timed(file, args, env) {
  const started = performance.now();
  await run(file, args, { env, maxBuffer: 256 * 1024 * 1024 });
  return performance.now() - started;
}

const median = (times) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];

const dataDir = await mkdtemp(path.join(tmpdir(), 'adops-bench-cli-'));
const configDir = path.join(dataDir, 'cli-config');
const server = await startServer(path.join(dataDir, 'data'));
try {
  const env = { ...process.env, ADOPS_CONFIG_DIR: configDir, ADOPS_URL: server.url, NO_COLOR: '1' };
  const adops = path.join(root, 'cli/bin/adops.js');
  const login = spawn(process.execPath, [adops, 'login', '--email', ADMIN.email], { env, stdio: ['pipe', 'ignore', 'inherit'] });
  login.stdin.end(`${ADMIN.password}\n`);
  const code = await new Promise((resolve) => login.once('exit', resolve));
  if (code !== 0) throw new Error(`adops login exited ${code}`);

  const cases = [
    ['node -e 0', process.execPath, ['-e', '0'], null],
    ['adops --version', process.execPath, [adops, '--version'], 2],
    ['adops --help', process.execPath, [adops, '--help'], 2],
    ['adops report zones --json --limit 20', process.execPath, [adops, 'report', 'zones', '--json', '--limit', '20'], 3],
    ['adops report zones --json', process.execPath, [adops, 'report', 'zones', '--json'], null],
    ['adops dashboard --json', process.execPath, [adops, 'dashboard', '--json'], null],
  ];
  // One warm-up round (the file cache), then the timed rounds.
  for (const [, file, args] of cases) await timed(file, args, env);
  const times = cases.map(() => []);
  for (let round = 0; round < RUNS; round++) for (const [i, [, file, args]] of cases.entries()) times[i].push(await timed(file, args, env));
  const bare = median(times[0]);
  console.log(
    `adops start-up and JSON reports, median of ${RUNS} interleaved runs (node ${process.version}, ${(await import('node:os')).cpus().length} CPUs)`,
  );
  console.log(`${'command'.padEnd(38)} ${'ms'.padStart(8)}  ${'× node -e 0'.padStart(11)}  ${'target'.padStart(8)}`);
  for (const [i, [name, , , target]] of cases.entries()) {
    const ms = median(times[i]);
    const ratio = ms / bare;
    const verdict = target === null ? '' : `≤ ${target.toFixed(1)}×  ${ratio <= target ? 'ok' : 'OVER'}`;
    console.log(`${name.padEnd(38)} ${ms.toFixed(0).padStart(8)}  ${ratio.toFixed(1).padStart(11)}  ${verdict.padStart(8)}`);
  }
} finally {
  server.child.kill('SIGTERM');
  await server.exited;
  await rm(dataDir, { recursive: true, force: true });
}
