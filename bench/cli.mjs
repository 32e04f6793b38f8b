// `npm run bench:cli` (prints figures; not a test): wall time of the installed `adops` command
// as a person or a script runs it — `--version`, `--help`, `report zones --json` and
// `dashboard --json` against a demo server — the median of 10 runs each, beside bare
// `node -e 0` as the ratio. The server runs as a child process on a temp data dir.
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

/** Median wall time in ms of `count` runs of a command. */
async function median(file, args, env, count = RUNS) {
  const times = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await run(file, args, { env, maxBuffer: 256 * 1024 * 1024 });
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

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

  const bare = await median(process.execPath, ['-e', '0'], env);
  const cases = [
    ['adops --version', ['--version']],
    ['adops --help', ['--help']],
    ['adops report zones --json', ['report', 'zones', '--json']],
    ['adops dashboard --json', ['dashboard', '--json']],
  ];
  console.log(`adops start-up and JSON reports, median of ${RUNS} runs (node ${process.version}, ${(await import('node:os')).cpus().length} CPUs)`);
  console.log(`${'command'.padEnd(28)} ${'ms'.padStart(8)}  ${'× node -e 0'.padStart(11)}`);
  console.log(`${'node -e 0'.padEnd(28)} ${bare.toFixed(0).padStart(8)}  ${'1.0'.padStart(11)}`);
  for (const [name, args] of cases) {
    const ms = await median(process.execPath, [adops, ...args], env);
    console.log(`${name.padEnd(28)} ${ms.toFixed(0).padStart(8)}  ${(ms / bare).toFixed(1).padStart(11)}`);
  }
  console.log('Targets: --version < 200 ms; a JSON report < 500 ms.');
} finally {
  server.child.kill('SIGTERM');
  await server.exited;
  await rm(dataDir, { recursive: true, force: true });
}
