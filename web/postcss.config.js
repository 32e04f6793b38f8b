// PostCSS: Tailwind then vendor prefixes.
export default {
  plugins: { tailwindcss: {}, autoprefixer: {} },
};
