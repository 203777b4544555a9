/**
 * The vitest config Stryker runs against each mutant: the unit and property
 * suites (not the end-to-end ones, which pack the package and start servers),
 * with fewer generated cases per property (scripts/mutation-setup.ts).
 *
 * Each mutant re-runs every test file that covers it, so most files share one
 * module graph per worker (`isolate: false`): importing the library afresh for
 * every file was most of a mutant's time. The files that replace a module or a
 * built-in for their tests keep their own graph.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const OWN_MODULES = [
  'test/cli.read-responses.fs-errors.test.ts',
  'test/hash.fingerprint-backend.test.ts',
  'test/hash.without-native-hash.test.ts',
  'test/ledger.keys.test.ts',
  'test/wire.bookkeeping-never-fails.test.ts',
];

const shared = {
  setupFiles: ['scripts/mutation-setup.ts'],
  // Generous: a busy machine must not fail the dry run (Stryker then stops).
  testTimeout: 120_000,
};

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    projects: [
      {
        extends: true,
        test: {
          ...shared,
          name: 'shared-modules',
          include: ['test/**/*.test.ts'],
          // The doc examples re-extract every example each time their file runs: a second
          // per mutant, for lines the suites that own each rule already hold to account.
          // The docs' code blocks import the built package, which the sandbox leaves out.
          exclude: [
            'test/browser/**',
            'test/e2e/**',
            'node_modules/**',
            'test/docs.examples.test.ts',
            'test/docs.code-blocks.test.ts',
            ...OWN_MODULES,
          ],
          isolate: false,
        },
      },
      { extends: true, test: { ...shared, name: 'own-modules', include: OWN_MODULES } },
    ],
  },
});
