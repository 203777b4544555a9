/**
 * The vitest config Stryker runs against each mutant: the unit, property and
 * hostile suites, without the slow end-to-end ones (packed tarball, real
 * worker threads, recorded replays, browser), which mutate nothing more and
 * would multiply the run time.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [
      'test/browser/**',
      'test/package/**',
      'test/**/*.worker.test.ts',
      'test/**/*replay*.test.ts',
      'test/fixtures.test.ts',
      'node_modules/**',
    ],
    setupFiles: ['test/testing.mutation-setup.ts'],
    testTimeout: 30_000,
  },
});
