// Builds what is missing or stale: TypeScript packages (tsc -b is incremental) and the web
// UI (only when web/dist is older than its sources). Used by `npm start` and benchmarks.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function newest(p) {
  if (!existsSync(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  let max = 0;
  for (const e of readdirSync(p)) {
    if (e === 'node_modules' || e === 'dist') continue;
    max = Math.max(max, newest(path.join(p, e)));
  }
  return max;
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.status !== 0) {
    console.error(`Build failed: ${cmd} ${args.join(' ')}`);
    process.exit(r.status ?? 1);
  }
}

export function ensureBuild({ web = true } = {}) {
  run('npx', ['tsc', '-b', 'core', 'server', 'cli']);
  if (!web) return;
  const built = path.join(root, 'web/dist/index.html');
  const sources = Math.max(
    newest(path.join(root, 'web/src')),
    newest(path.join(root, 'web/index.html')),
    newest(path.join(root, 'web/vite.config.ts')),
    newest(path.join(root, 'web/tailwind.config.js')),
    newest(path.join(root, 'core/src')),
  );
  if (!existsSync(built) || statSync(built).mtimeMs < sources) {
    console.log('Building the web UI…');
    run('npm', ['run', 'build', '-w', '@adops/web']);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) ensureBuild();
