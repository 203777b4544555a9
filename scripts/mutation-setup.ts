/**
 * Setup for mutation runs only (scripts/vitest.mutation.config.ts): fewer generated
 * cases per property, since each mutant re-runs every test that covers it. The
 * laws are the same; a mutant that survives 20 cases of every law that reaches
 * it rarely dies at 150.
 */
import fc from 'fast-check';

fc.configureGlobal({ numRuns: 20 });
