import { defineConfig } from 'vite';

// Always the production bundle, also when a test runner's NODE_ENV=test runs `npm run build`
// (Vite would otherwise keep that NODE_ENV and ship a larger, slower development build).
process.env.NODE_ENV = 'production';

// Preact through esbuild's automatic JSX runtime (tsconfig's jsxImportSource): no Babel.
// The gateway serves dist/ at / and falls back to index.html for the console's own paths.
export default defineConfig({
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: false, assetsDir: 'assets' },
  // During `vite` (development), the API comes from a running Hangar.
  server: { proxy: { '/api': process.env.HANGAR_URL ?? 'http://127.0.0.1:8080' } },
});
