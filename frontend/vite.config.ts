import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** The gateway serves frontend/dist on the same origin as the API, so every call is a relative `/api/...`. */
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    rolldownOptions: {
      treeshake: {
        // `@pawhaven/contracts` is pure (ARCHITECTURE §2: "no I/O"): a page that only needs a constant must
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
