// Tailwind for the SPA and Tremor v3: Tremor's theme tokens, dark mode by class, and the
// safelist Tremor documents so chart colours chosen at run time are generated.
import colors from 'tailwindcss/colors';
import plugin from 'tailwindcss/plugin';

/** The Demand charts' brand colours (ADVERTISER_PALETTE in src/components/demand/advertiserColor.ts). */
export const BRAND_PALETTE = ['blue', 'emerald', 'amber', 'violet', 'rose', 'cyan', 'orange', 'indigo', 'teal', 'fuchsia', 'lime', 'sky'];
const brands = `(?:${BRAND_PALETTE.join('|')})`;

/** Headless UI's state variants (what @headlessui/tailwindcss adds), used by Tremor. */
const headlessStates = plugin(({ addVariant }) => {
  for (const state of ['open', 'checked', 'selected', 'active', 'disabled']) {
    addVariant(`ui-${state}`, [`&[data-headlessui-state~="${state}"]`, `:where([data-headlessui-state~="${state}"]) &`]);
    addVariant(`ui-not-${state}`, [
      `&[data-headlessui-state]:not([data-headlessui-state~="${state}"])`,
      `:where([data-headlessui-state]:not([data-headlessui-state~="${state}"])) &:not([data-headlessui-state])`,
    ]);
  }
});

/** @type {import('tailwindcss').Config} */
export default {
  // Paths relative to this file; @tremor may sit in web/node_modules or be hoisted to the root.
  // Only the Tremor parts the app draws (BarChart, its legend and tooltip, their helpers): the
  // classes of Tremor's other 100 components would ship unused.
  content: {
    relative: true,
    files: [
      './index.html',
      './src/**/*.{js,ts,jsx,tsx}',
      ...['./node_modules', '../node_modules'].flatMap((root) =>
        ['components/chart-elements/BarChart/*.js', 'components/chart-elements/common/*.js', 'components/text-elements/Legend/*.js', 'lib/*.js'].map(
          (part) => `${root}/@tremor/react/dist/${part}`,
        ),
      ),
    ],
  },
  darkMode: 'class',
  theme: {
    transparent: 'transparent',
    current: 'currentColor',
    extend: {
      colors: {
        tremor: {
          brand: {
            faint: colors.blue[50],
            muted: colors.blue[200],
            subtle: colors.blue[400],
            DEFAULT: colors.blue[500],
            emphasis: colors.blue[700],
            inverted: colors.white,
          },
          background: {
            muted: colors.gray[50],
            subtle: colors.gray[100],
            DEFAULT: colors.white,
            emphasis: colors.gray[700],
          },
          border: { DEFAULT: colors.gray[200] },
          ring: { DEFAULT: colors.gray[200] },
          content: {
            subtle: colors.gray[400],
            DEFAULT: colors.gray[500],
            emphasis: colors.gray[700],
            strong: colors.gray[900],
            inverted: colors.white,
          },
        },
        'dark-tremor': {
          brand: {
            faint: '#0B1229',
            muted: colors.blue[950],
            subtle: colors.blue[800],
            DEFAULT: colors.blue[500],
            emphasis: colors.blue[400],
            inverted: colors.blue[950],
          },
          background: {
            muted: '#131A2B',
            subtle: colors.gray[800],
            DEFAULT: colors.gray[900],
            emphasis: colors.gray[300],
          },
          border: { DEFAULT: colors.gray[800] },
          ring: { DEFAULT: colors.gray[800] },
          content: {
            subtle: colors.gray[600],
            DEFAULT: colors.gray[500],
            emphasis: colors.gray[200],
            strong: colors.gray[50],
            inverted: colors.gray[950],
          },
        },
      },
      boxShadow: {
        'tremor-input': '0 1px 2px 0 rgb(0 0 0 / 0.05)',
        'tremor-card': '0 1px 3px 0 rgb(0 0 0 / 0.1), 0 1px 2px -1px rgb(0 0 0 / 0.1)',
        'tremor-dropdown': '0 4px 6px -1px rgb(0 0 0 / 0.1), 0 2px 4px -2px rgb(0 0 0 / 0.1)',
        'dark-tremor-input': '0 1px 2px 0 rgb(0 0 0 / 0.05)',
        'dark-tremor-card': '0 1px 3px 0 rgb(0 0 0 / 0.1), 0 1px 2px -1px rgb(0 0 0 / 0.1)',
        'dark-tremor-dropdown': '0 4px 6px -1px rgb(0 0 0 / 0.1), 0 2px 4px -2px rgb(0 0 0 / 0.1)',
      },
      borderRadius: {
        'tremor-small': '0.375rem',
        'tremor-default': '0.5rem',
        'tremor-full': '9999px',
      },
      fontSize: {
        'tremor-label': ['0.75rem', { lineHeight: '1rem' }],
        'tremor-default': ['0.875rem', { lineHeight: '1.25rem' }],
        'tremor-title': ['1.125rem', { lineHeight: '1.75rem' }],
        'tremor-metric': ['1.875rem', { lineHeight: '2.25rem' }],
      },
    },
  },
  // Only what the Demand charts pick at run time (advertiserColor.ts: a brand palette, the bars in
  // its 600 and 300 shades, the figure in 700) — Tremor's documented safelist of every palette ×
  // shade × variant made the stylesheet 452 KB. advertiserColor.test.ts keeps the two in step.
  safelist: [{ pattern: new RegExp(`^(bg|text|border|ring|stroke|fill)-${brands}-(300|600)$`) }, { pattern: new RegExp(`^text-${brands}-700$`) }],
  plugins: [headlessStates],
};
