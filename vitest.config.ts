import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

// Unit + integration tests (no browser). Workspace packages resolve to their sources.
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
    include: ['core/src/**/*.test.ts', 'server/**/*.test.ts', 'cli/**/*.test.{ts,tsx}', 'web/src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**', 'e2e/**'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
