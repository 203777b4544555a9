/**
 * The vitest config Stryker runs against each mutant: the unit and property
 * suites (not the end-to-end ones, which pack the package and start servers),
 * with fewer generated cases per property
 * (scripts/mutation-setup.ts).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['test/**/*.test.ts'],
    exclude: ['test/browser/**', 'test/e2e/**', 'node_modules/**'],
    setupFiles: ['scripts/mutation-setup.ts'],
    // Generous: a busy machine must not fail the dry run (Stryker then stops).
    testTimeout: 120_000,
  },
});
