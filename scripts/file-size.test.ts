// Small rooms (issue 27): no file of the project's code — sources, tests, browser tests, scripts
// and benchmarks — runs past 600 lines, so each can be read whole.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const MAX_LINES = 600;
const DIRS = ['core/src', 'server/src', 'server/test', 'cli/src', 'cli/test', 'web/src', 'e2e', 'scripts', 'bench'];

function files(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    if (name === 'node_modules' || name === 'dist') return [];
    const rel = `${dir}/${name}`;
    if (statSync(path.join(root, rel)).isDirectory()) return files(rel);
    return /\.(ts|tsx|mjs)$/.test(name) ? [rel] : [];
  });
}

const lineCount = (rel: string) => readFileSync(path.join(root, rel), 'utf8').split('\n').length - 1;

test(`no file of code is over ${MAX_LINES} lines`, () => {
  const over = DIRS.flatMap(files)
    .filter((rel) => lineCount(rel) > MAX_LINES)
    .map((rel) => `${rel}: ${lineCount(rel)} lines`);
  expect(over).toEqual([]);
});
