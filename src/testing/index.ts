/**
 * span-ledger/testing: property-test arbitraries and a line-set reference model.
 */
export type { LineRange } from '../ranges/range.js';
