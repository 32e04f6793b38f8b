// Runs in every test worker before its test file is loaded.
//
// Test files that draw a screen directly (ink-testing-library, cli/src/ui/*) load Ink when they
// are imported, before adops' loadUi can hide the CI, CONTINUOUS_INTEGRATION and CI_* variables
// (cli/src/ui-loader.ts). Ink evaluated under such a variable — as in a CI job — writes nothing
// until a screen exits, so every test that types at a screen would wait for a frame that never
// comes. Tests pretend to be a person at a terminal: the variables are hidden here, and
// cli/test/ci-variables.test.ts sets them again itself to prove adops draws with them set.
//
// The temp config dirs a file's `adops` runs made (cli/test/helpers.ts newConfigDir) are removed
// after the file: a test run leaves /tmp as it found it.
import { rm } from 'node:fs/promises';
import { afterAll } from 'vitest';
import { ciVariable } from '../cli/src/ui-loader.js';

for (const name of Object.keys(process.env)) if (ciVariable(name)) delete process.env[name];

afterAll(async () => {
  const made = (globalThis as { adopsCliConfigDirs?: string[] }).adopsCliConfigDirs ?? [];
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});
