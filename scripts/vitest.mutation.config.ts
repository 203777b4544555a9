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
  'test/fingerprint.backend.test.ts',
  'test/fingerprint.without-native-hash.test.ts',
  'test/ledger.keys.test.ts',
  'test/tool-path.bookkeeping-never-fails.test.ts',
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
          exclude: ['test/browser/**', 'test/e2e/**', 'node_modules/**', ...OWN_MODULES],
          isolate: false,
        },
      },
      { extends: true, test: { ...shared, name: 'own-modules', include: OWN_MODULES } },
    ],
  },
});
