import { defineConfig } from 'vite';

// Preact through esbuild's automatic JSX runtime (tsconfig's jsxImportSource): no Babel.
// The gateway serves dist/ at / and falls back to index.html for the console's own paths.
export default defineConfig({
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: false, assetsDir: 'assets' },
  // During `vite` (development), the API comes from a running Hangar.
  server: { proxy: { '/api': process.env.HANGAR_URL ?? 'http://127.0.0.1:8080' } },
});
