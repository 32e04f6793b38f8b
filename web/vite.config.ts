// Vite build of the staff SPA: JSX through esbuild (no React plugin), core imported from
// its sources so the web never needs core built first.
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  root: here('.'),
  base: '/',
  resolve: {
    alias: { '@adops/core': here('../core/src/index.ts') },
  },
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: here('dist'),
    emptyOutDir: true,
    sourcemap: false,
    // dist/.vite/manifest.json: the chunk graph `npm run size` measures each page's download by.
    manifest: true,
    rollupOptions: {
      // Tremor/Headless UI ship "use client" directives and zod a comment annotation Rollup
      // drops: harmless for a client-only bundle, so keep them out of the build log.
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE' || warning.code === 'INVALID_ANNOTATION') return;
        warn(warning);
      },
    },
  },
  server: {
    proxy: { '/api': 'http://localhost:8080' },
  },
});
