import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/browser/**', 'node_modules/**'],
    testTimeout: 30_000,
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      exclude: ['src/cli/**'],
      reporter: ['text-summary', 'json-summary'],
      // Every line of src/ runs under test, and nearly every branch: a drop fails npm test.
      thresholds: { lines: 100, branches: 95 },
    },
  },
});
