import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The server serves dist/ at `/` (SPA fallback) and the JSON API at `/api/v1` on
// the same origin; in dev, Vite proxies both the API and OTLP ingest to it.
const server = 'http://127.0.0.1:4318';

export default defineConfig({
  base: '/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  server: {
    proxy: {
      '/api': { target: server, changeOrigin: true },
      '/v1': { target: server, changeOrigin: true },
    },
  },
});
