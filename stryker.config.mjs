// Mutation testing: `npm run test:mutation`. Stryker mutates the library's
// source and runs the lean vitest config (vitest.mutation.config.ts) against
// each mutant, per test, two at a time (the CI machine has two cores).
// Incremental: results for unchanged code and tests are reused from
// stryker-incremental.json (committed), so CI re-tests only what changed.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  mutate: [
    'src/**/*.ts',
    // Type-only files: nothing to mutate at run time.
    '!src/ledger/types.ts',
    // CLI terminal presentation and maintenance scripts, not library behaviour.
    '!src/cli/format.ts',
    '!src/cli/main.ts',
    '!src/cli/embed-fixture.ts',
    '!src/cli/_sample.ts',
  ],
  coverageAnalysis: 'perTest',
  concurrency: 2,
  timeoutMS: 10_000,
  reporters: ['json', 'clear-text', 'progress'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 95, low: 90, break: 90 },
  incremental: true,
  incrementalFile: 'stryker-incremental.json',
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
