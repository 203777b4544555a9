/**
 * The layers mutation testing runs one at a time: what each mutates, and which
 * test files may kill its mutants (globs relative to the repository root).
 */
const HOSTILE = 'test/hostile.test.ts';
const COVERAGE = 'test/coverage-*.test.ts';

export const LAYERS = {
  ranges: {
    mutate: ['src/ranges/**/*.ts', 'src/fingerprint/**/*.ts'],
    tests: ['test/ranges*.test.ts', 'test/fingerprint*.test.ts', COVERAGE, HOSTILE],
  },
  ledger: {
    mutate: ['src/ledger/**/*.ts', '!src/ledger/types.ts', 'src/wire/**/*.ts'],
    tests: ['test/ledger*.test.ts', 'test/wire.test.ts', 'test/store*.test.ts', COVERAGE, HOSTILE],
  },
  dedup: {
    mutate: ['src/dedup/**/*.ts'],
    tests: [
      'test/dedup*.test.ts',
      'test/plan*.test.ts',
      'test/pointer*.test.ts',
      'test/diagnostics*.test.ts',
      COVERAGE,
      HOSTILE,
    ],
  },
  adapter: {
    mutate: [
      'src/adapter/**/*.ts',
      'src/cli/**/*.ts',
      // Terminal presentation and maintenance scripts, not library behaviour.
      '!src/cli/format.ts',
      '!src/cli/main.ts',
      '!src/cli/embed-fixture.ts',
      '!src/cli/_sample.ts',
    ],
    tests: [
      'test/adapter*.test.ts',
      'test/render*.test.ts',
      'test/cli*.test.ts',
      'test/fixtures.test.ts',
      COVERAGE,
      HOSTILE,
    ],
  },
  testing: {
    mutate: ['src/testing/**/*.ts'],
    tests: ['test/testing*.test.ts', 'test/ranges.property.test.ts', COVERAGE, HOSTILE],
  },
};
