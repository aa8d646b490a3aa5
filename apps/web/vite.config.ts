import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

// The build goes into the server package (apps/server/dist/web), which ships the
// dashboard and serves it at `/` (SPA fallback) with the JSON API at `/api/v1` on
// the same origin; in dev, Vite proxies both the API and OTLP ingest to it.
const server = 'http://127.0.0.1:4318';

export default defineConfig({
  base: '/',
  plugins: [react()],
  // Workspace packages (the API contract) resolve to their TypeScript sources, bundled like the app's own.
  resolve: { conditions: ['source', ...defaultClientConditions] },
  build: {
    outDir: '../server/dist/web',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        // Long-lived vendor chunks: app changes do not bust the framework or chart caches.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler|@tanstack)[\\/]/ },
            {
              name: 'charts',
              test: /node_modules[\\/](recharts|d3-[^\\/]+|victory-vendor|@reduxjs|redux|immer|reselect|es-toolkit|decimal\.js-light|react-redux|use-sync-external-store|eventemitter3|tiny-invariant|clsx)[\\/]/,
            },
            { name: 'vendor', test: /node_modules[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: server, changeOrigin: true },
      '/v1': { target: server, changeOrigin: true },
    },
  },
});
