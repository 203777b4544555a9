/**
 * The vitest config Stryker runs against each mutant: the unit and property
 * suites and the Redis backend's, with fewer generated cases per property
 * (scripts/mutation-setup.ts).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['test/**/*.test.ts'],
    // The end-to-end suites stay out (they pack the package and start MCP
    // servers), except the Redis backend's: it is the only test of src/redis.
    exclude: ['test/browser/**', 'test/e2e/!(redis).test.ts', 'node_modules/**'],
    setupFiles: ['scripts/mutation-setup.ts'],
    // Generous: a busy machine must not fail the dry run (Stryker then stops).
    testTimeout: 120_000,
  },
});
