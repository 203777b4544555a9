// Mutation testing: run it through `npm run test:mutation` (scripts/mutation.mjs),
// which chooses what to mutate (a seeded sample of src/, the lines changed since
// scripts/mutation-base.json, or everything with --all), whether static mutants
// are left out, and scores every mutant tested.
const mutate = JSON.parse(process.env.SPAN_LEDGER_MUTATE ?? '["src/**/*.ts"]');

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'vitest',
  vitest: { configFile: 'scripts/vitest.mutation.config.ts', related: false },
  plugins: ['@stryker-mutator/vitest-runner', './scripts/stryker-progress.mjs'],
  mutate,
  coverageAnalysis: 'perTest',
  ignoreStatic: process.env.SPAN_LEDGER_IGNORE_STATIC === '1',
  concurrency: 2,
  // Generous, so that only a mutant that really hangs times out: a busy machine
  // must not turn a slow run into a "detected" mutant.
  timeoutMS: 10_000,
  timeoutFactor: 2,
  reporters: ['progress-file', 'json', 'clear-text', 'progress-append-only'],
  clearTextReporter: { reportTests: false, maxTestsToLog: 0 },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 95, low: 90, break: null },
  // vitest transpiles without type checking, so the sandbox needs no
  // `// @ts-nocheck` banners; adding them would also alter fixtures/sample,
  // which a test compares byte for byte with the copy the CLI embeds.
  disableTypeChecks: false,
  tempDirName: '.stryker-tmp',
  ignorePatterns: ['/.stryker-tmp*', '/coverage', '/.bench', '/docs/api', '/dist'],
  cleanTempDir: 'always',
};
