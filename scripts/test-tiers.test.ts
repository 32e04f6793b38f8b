// Why the fast tier takes under two minutes on two CPUs (docs/testing.md): its files run in
// worker threads that keep their modules from file to file, three threads for the whole run, and
// the one file that needs a process of its own runs apart. A change that drops one of these
// fails here, not in a timing.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import config from '../vitest.config.js';

const scripts = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).scripts as Record<string, string>;
type Project = { test: { name: string; pool?: string; include?: string[]; exclude?: string[] } };
const projects = (config as { test: { projects: Project[] } }).test.projects;
const project = (name: string) => projects.find((p) => p.test.name === name)!.test;

test('the fast tier runs in three threads kept to the end, sharing modules between files', () => {
  expect(project('fast').pool).toBe('threads');
  const fast = scripts['test:fast'].split('&&')[0];
  expect(fast).toContain('--project fast ');
  expect(fast).toContain('--no-isolate');
  expect(fast).toContain('--minWorkers=3');
  expect(fast).toContain('--maxWorkers=3');
});

test('the file that sets the umask runs apart, in a process, after the threads', () => {
  expect(project('fast').exclude).toContain('server/test/data-dir.test.ts');
  expect(project('fast-process').include).toEqual(['server/test/data-dir.test.ts']);
  expect(project('fast-process').pool).not.toBe('threads');
  expect(scripts['test:fast'].split('&&')[1]).toContain('--project fast-process');
});
