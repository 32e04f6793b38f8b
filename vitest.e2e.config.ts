import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

// Browser tests: playwright-core driving Debian's Chromium against the built app.
export default defineConfig({
  resolve: {
    // Exact names: '@adops/core/lite' (adops' zod-free entry) is not '@adops/core' plus a path.
    alias: [
      { find: /^@adops\/core$/, replacement: fileURLToPath(new URL('./core/src/index.ts', import.meta.url)) },
      { find: /^@adops\/core\/lite$/, replacement: fileURLToPath(new URL('./core/src/lite.ts', import.meta.url)) },
      { find: /^@adops\/server$/, replacement: fileURLToPath(new URL('./server/src/app.ts', import.meta.url)) },
    ],
  },
  test: {
    include: ['e2e/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    poolOptions: { forks: { singleFork: true } },
    fileParallelism: false,
  },
});
