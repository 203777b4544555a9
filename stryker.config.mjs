// Mutation testing: `npm run test:mutation` (scripts/mutation.mjs) runs Stryker
// once per layer of the library. Each layer's mutants are tested by that
// layer's own suites plus the hostile-input suite, as the tests are layered the
// way the design is: a mutant in the range algebra must die in the algebra's
// tests, not only three layers up in a planner scenario. This also keeps each
// mutant's test run short on a two-core machine.
//
// Incremental: results for unchanged code and tests are reused from
// stryker-incremental/<layer>.json (committed), so CI re-tests only what
// changed since the last full run.
import { LAYERS } from './scripts/mutation-layers.mjs';

const layer = process.env.SPAN_LEDGER_MUTATION_LAYER ?? 'ranges';
const spec = LAYERS[layer];
if (!spec)
  throw new Error(`unknown mutation layer ${layer}: one of ${Object.keys(LAYERS).join(', ')}`);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  mutate: spec.mutate,
  coverageAnalysis: 'perTest',
  concurrency: 2,
  // Generous, so that only a mutant that really hangs times out: a busy machine
  // must not turn a slow run into a "detected" mutant.
  timeoutMS: 10_000,
  timeoutFactor: 2,
  reporters: ['json', 'clear-text', 'progress-append-only'],
  clearTextReporter: { reportTests: false, maxTestsToLog: 0 },
  jsonReporter: { fileName: `reports/mutation/${layer}.json` },
  // The whole-library score (all layers) is enforced by scripts/mutation.mjs.
  thresholds: { high: 95, low: 90, break: null },
  incremental: true,
  incrementalFile: `stryker-incremental/${layer}.json`,
  // vitest transpiles without type checking, so the sandbox needs no
  // `// @ts-nocheck` banners; adding them would also alter fixtures/sample,
  // which a test compares byte for byte with the copy the CLI embeds.
  disableTypeChecks: false,
  tempDirName: '.stryker-tmp',
  // Not copied into the sandbox: other runs' sandboxes, build and report output.
  ignorePatterns: ['/.stryker-tmp*', '/coverage', '/.bench', '/docs/api'],
  cleanTempDir: 'always',
};
