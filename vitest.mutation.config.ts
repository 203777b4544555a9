/**
 * The vitest config Stryker runs against each mutant: the suites of the layer
 * being mutated (SPAN_LEDGER_MUTATION_LAYER, see scripts/mutation-layers.mjs),
 * with fewer generated cases per property (test/testing.mutation-setup.ts).
 */
import { defineConfig } from 'vitest/config';
import { LAYERS } from './scripts/mutation-layers.mjs';

const layer = (process.env.SPAN_LEDGER_MUTATION_LAYER ?? 'ranges') as keyof typeof LAYERS;

export default defineConfig({
  test: {
    include: LAYERS[layer].tests,
    exclude: ['test/browser/**', 'test/package/**', 'node_modules/**'],
    setupFiles: ['test/testing.mutation-setup.ts'],
    // Generous: a busy machine must not fail the dry run (Stryker then stops).
    testTimeout: 120_000,
  },
});
