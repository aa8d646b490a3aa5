import { defineConfig } from 'vitest/config';

// One config for the whole workspace. `source` resolves workspace packages to
// their TypeScript sources, so tests never need a build or alias table.
// Each test file runs in its own process: chDB binds one data dir per process.
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    pool: 'forks',
    include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.{ts,tsx}', 'test/*/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['./test/e2e/harness/globalSetup.ts'],
    // eventsource-parser (under the Vercel AI SDK) also publishes a `source`
    // export condition, pointing at its TypeScript, which our `source`
    // condition selects: Node cannot load that, vite can. So vite transforms
    // it, and the packages that import it (ai, @ai-sdk/*, the MCP SDK and its
    // eventsource client), instead of Node.
    server: {
      deps: {
        inline: [
          /node_modules\/ai\//,
          /node_modules\/@ai-sdk\//,
          /node_modules\/eventsource-parser\//,
          /node_modules\/eventsource\//,
          /node_modules\/@modelcontextprotocol\//,
        ],
      },
    },
  },
});
