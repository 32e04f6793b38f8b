// `npm run size`: the web bundle budget. What a browser downloads for the login page and for
// the first Dashboard view (the entry chunk, the page's chunk and every chunk they import,
// gzipped as the server sends them), and the stylesheet before gzip, against their budgets.
// Prints every figure; exits 1 when one is over. Reads the chunk graph Vite writes to
// dist/.vite/manifest.json, so it measures the build that ships.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

export const BUDGETS = [
  // The entry chunk binds the API from zod-free endpoints (core/src/contract/endpoints.ts): ~62 KB.
  { name: 'Login: JS (gzip)', page: 'src/pages/Login.tsx', kind: 'js', limit: 85 * 1024 },
  { name: 'Dashboard, first view: JS (gzip)', page: 'src/pages/Dashboard.tsx', kind: 'js', limit: 250 * 1024 },
  { name: 'CSS (before gzip)', kind: 'css', limit: 100 * 1024 },
];

/** Every chunk a page loads before it shows: the entry's and the page's static imports, transitively. */
function chunksOf(manifest, keys) {
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    for (const next of manifest[key].imports ?? []) visit(next);
  };
  keys.forEach(visit);
  return [...seen].map((key) => manifest[key]);
}

/** Measures a built web UI (`dist`) against `budgets`: [{name, figure, limit, over}]. */
export function measure(dist, budgets = BUDGETS) {
  const manifest = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'));
  const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
  if (!entry) throw new Error(`${dist}: the manifest names no entry chunk`);
  const bytes = (file) => readFileSync(path.join(dist, file));
  return budgets.map((budget) => {
    let figure;
    if (budget.kind === 'css') {
      const files = new Set(Object.values(manifest).flatMap((chunk) => [...(chunk.css ?? []), ...(chunk.file.endsWith('.css') ? [chunk.file] : [])]));
      figure = [...files].reduce((sum, file) => sum + bytes(file).length, 0);
    } else {
      if (!manifest[budget.page]) throw new Error(`${dist}: no chunk for ${budget.page}`);
      const files = chunksOf(manifest, [entry, budget.page]).map((chunk) => chunk.file);
      figure = files.reduce((sum, file) => sum + gzipSync(bytes(file), { level: 9 }).length, 0);
    }
    return { name: budget.name, figure, limit: budget.limit, over: figure > budget.limit };
  });
}

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

export function report(results) {
  const width = Math.max(...results.map((r) => r.name.length));
  return results
    .map(
      (r) =>
        `${r.over ? '✗' : '✓'} ${r.name.padEnd(width)}  ${kb(r.figure).padStart(9)} of ${kb(r.limit).padStart(8)}  (${((r.figure / r.limit) * 100).toFixed(0)}%)`,
    )
    .join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dist = process.argv[2] ?? fileURLToPath(new URL('../web/dist', import.meta.url));
  const results = measure(dist);
  console.log(report(results));
  if (results.some((r) => r.over)) {
    console.error('Over the bundle budget: see the lines marked ✗.');
    process.exit(1);
  }
}
