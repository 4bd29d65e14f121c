/**
 * Builds the web view (web/) into dist/web: index.html and hashed assets that
 * the server serves itself (src/server/web-assets.ts). No CDN, no runtime
 * fetches but the server's own API.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: '/',
  publicDir: 'public',
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    modulePreload: { polyfill: false },
    target: 'es2022',
    // The page is small; one chunk is fine and keeps the page to two requests.
    chunkSizeWarningLimit: 200,
  },
});
