import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Unit + integration tests (no browser) in two tiers, `npm test` running one after the other:
// - fast: core, web, cli and the server on its embedded engines (DuckDB, lowdb, the in-process
//   live bus) — `npm run test:fast`;
// - engines: every file that starts PostgreSQL, Redis or ClickHouse (chdb), found by what it calls
//   to start one (ENGINE_STARTERS below), so a new such file joins this tier by itself —
//   `npm run test:engines`.
// Workspace packages resolve to their sources.
const root = fileURLToPath(new URL('.', import.meta.url));
const TEST_DIRS = ['core/src', 'server', 'cli', 'web/src', 'scripts'];
const TEST_FILE = /\.test\.tsx?$/;
/** What a test file calls to start an engine (server/test: pg-cluster.ts, redis-server.ts, clickhouse-http.ts, helpers.ts). */
const ENGINE_STARTERS =
  /\b(startPgCluster|startRedisServer|startClickHouseHttp|bothWarehouses|chdbClient|useClickHouseWarehouse|againOnClickHouse)\(|chdb:\/\//;

function testFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    if (name === 'node_modules' || name === 'dist') return [];
    const rel = `${dir}/${name}`;
    if (statSync(path.join(root, rel)).isDirectory()) return testFiles(rel);
    return TEST_FILE.test(name) ? [rel] : [];
  });
}

const engineFiles = TEST_DIRS.flatMap(testFiles).filter((file) => ENGINE_STARTERS.test(readFileSync(path.join(root, file), 'utf8')));
/**
 * The fast tier runs in worker threads that keep their modules between files (`--no-isolate` in
 * `npm run test:fast`: vitest 3 takes `isolate` from the command line, not from a project; with
 * --minWorkers equal to --maxWorkers no idle thread is ended under a running batch of files, which
 * otherwise failed a green run now and then with 'Terminating worker thread'):
 * loading the server's and core's modules once per thread rather than once per file took the
 * tier from 241 s (forks, isolated) to 109 s on the 2-CPU box — 'collect' 172 → 21 CPU-seconds.
 * Module state therefore lives on from file to file: a test must not count on a fresh module
 * (each starts its own server, data dir and stores). These files need a process of their own (run apart by `npm run
 * test:fast`, as the two kinds of pool do not end cleanly in one run): worker threads cannot set
 * the umask the data directory's privacy rests on (server/src/data-dir.ts).
 */
const PROCESS_FILES = ['server/test/data-dir.test.ts'];
const include = TEST_DIRS.map((dir) => `${dir}/**/*.test.{ts,tsx}`);
const exclude = ['**/node_modules/**', '**/dist/**', 'e2e/**'];

export default defineConfig({
  resolve: {
    // Exact names: '@adops/core/lite' (adops' zod-free entry) is not '@adops/core' plus a path.
    alias: [
      { find: /^@adops\/core$/, replacement: fileURLToPath(new URL('./core/src/index.ts', import.meta.url)) },
      { find: /^@adops\/core\/lite$/, replacement: fileURLToPath(new URL('./core/src/lite.ts', import.meta.url)) },
      { find: /^@adops\/server$/, replacement: fileURLToPath(new URL('./server/src/app.ts', import.meta.url)) },
    ],
  },
  esbuild: { jsx: 'automatic' },
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    setupFiles: ['scripts/vitest-setup.ts'],
    projects: [
      { extends: true, test: { name: 'fast', pool: 'threads', include, exclude: [...exclude, ...engineFiles, ...PROCESS_FILES] } },
      { extends: true, test: { name: 'fast-process', include: PROCESS_FILES, exclude } },
      { extends: true, test: { name: 'engines', include: engineFiles, exclude } },
    ],
  },
});
