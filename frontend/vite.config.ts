import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { raInAppRouter } from './src/admin/build/ra-in-app-router.ts';
// Vite bundles only relative imports of its config; a workspace package's .ts entry would be left to Node, which
// cannot load it. Hence the one relative import across workspaces.
// eslint-disable-next-line import-x/no-relative-packages
import { CSP_NONCE_PLACEHOLDER } from '../contracts/src/http.ts';

/** The gateway serves frontend/dist on the same origin as the API, so every call is a relative `/api/...`. */
export default defineConfig({
  // raInAppRouter: react-admin's own-router fallback never runs (it always sits inside ours); dropping it keeps
  // ~16 KB gzip of react-router out of the public pages' first download.
  plugins: [react(), raInAppRouter()],
  // index.html's scripts, styles and stylesheets get a nonce attribute, and a `csp-nonce` meta is added: the gateway
  // replaces the placeholder with a fresh nonce for every page it serves (gateway/src/csp.ts).
  html: { cspNonce: CSP_NONCE_PLACEHOLDER },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    rolldownOptions: {
      output: {
        // Fewer, larger files for a phone on a slow network (each request costs a round trip, six at a time):
        // everything the first screen needs is one file, and the MUI parts shared by several pages are one more
        // (cached across pages) instead of dozens of tiny chunks in front of every page.
        codeSplitting: {
          groups: [
            { name: 'shell', tags: ['$initial'], priority: 3 },
            // The rest of TanStack Query (useMutation) in a small chunk of its own: left to the groups below, it went
            // into react-admin's chunk (a dependency of ra-core), so every page with a form or a like button loaded
            // the dashboard's 107 KB gzipped library.
            { name: 'query', test: /node_modules[\\/]@tanstack[\\/]/, priority: 2 },
            {
              name: 'mui',
              test: /node_modules[\\/](@mui|@emotion|react-transition-group)[\\/]/,
              minShareCount: 2,
              priority: 1,
            },
            // The dashboard's libraries, each a chunk under Vite's 500 kB warning (one 758 kB chunk before): react-admin
            // and its data/router glue, and the charts. Only the dashboard loads them.
            {
              name: 'admin-react-admin',
              test: /node_modules[\\/](react-admin|ra-[a-z-]+)[\\/]/,
              priority: 1,
            },
            {
              name: 'admin-charts',
              test: /node_modules[\\/](recharts|victory-vendor|d3-[a-z-]+|decimal\.js-light|@reduxjs|redux|immer|reselect)[\\/]/,
              priority: 1,
            },
          ],
        },
      },
      treeshake: {
        // `@pawhaven/contracts` is pure (no I/O, no side effects): a page that only needs a constant must
        // not pull every zod schema (and zod) into the initial bundle.
        moduleSideEffects: (id: string) => !/[\\/]contracts[\\/]src[\\/]/.test(id),
      },
    },
  },
  server: {
    port: 5173,
    // In development the API runs on the gateway (port 3000).
    proxy: {
      '/api': { target: 'http://localhost:3000', changeOrigin: false },
      '/socket.io': { target: 'http://localhost:3000', ws: true },
      '/dev': { target: 'http://localhost:3000' },
    },
  },
});
