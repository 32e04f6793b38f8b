// PostCSS: Tailwind (its config named explicitly, so a build started from any directory
// is styled the same) then vendor prefixes.
import { fileURLToPath } from 'node:url';

export default {
  plugins: {
    tailwindcss: { config: fileURLToPath(new URL('./tailwind.config.js', import.meta.url)) },
    autoprefixer: {},
  },
};
