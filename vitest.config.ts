import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** `span-ledger` and its entries resolve to the sources, as tsconfig.json's `paths` say (no build needed). */
const fromSource = [
  { find: /^span-ledger$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
  {
    find: /^span-ledger\/(adapter|shared|wire|testing|redis)$/,
    replacement: fileURLToPath(new URL('./src/$1/index.ts', import.meta.url)),
  },
];

/**
 * Three projects: `unit` (the library's rules, in process: algebra, ledger,
 * planner, adapter, CLI, property tests), `e2e` (what starts processes or
 * servers: the packed tarball, other runtimes, MCP servers as subprocesses,
 * Redis) and `proxy` (the span-ledger-proxy package, against the real
 * upstream servers it fronts; it runs the built package, so `npm run build`
 * first). `npx vitest run --project unit` is the quick loop.
 */
export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          alias: fromSource,
          exclude: ['test/e2e/**', 'test/browser/**', 'node_modules/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'proxy',
          include: ['packages/proxy/test/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
    testTimeout: 30_000,
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      // The core's own sources; the proxy package is measured by its own project's tests.
      exclude: ['src/cli/**', 'packages/**'],
      reporter: ['text-summary', 'json-summary'],
      // Every line of src/ runs under test, and nearly every branch: a drop fails npm test.
      thresholds: { lines: 100, branches: 95 },
    },
  },
});
