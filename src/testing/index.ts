/**
 * span-ledger/testing: the range algebra's laws as a reusable check, the
 * fast-check arbitraries behind them, and the line-set reference model.
 *
 * For test suites only: it imports fast-check (an optional peer dependency),
 * which the main entry never does. `fingerprintBackend` says which SHA-1 the
 * runtime under test fingerprints with.
 */
export { fingerprintBackend } from '../hash/fingerprint.js';
export type { LineRange } from '../ranges/range.js';
export {
  disguisedRangeArb,
  type EmissionArbitraryOptions,
  emissionArb,
  fileEmissionArb,
  hostileEmissionArb,
  hostileLedgerEventArb,
  hostileRangeArb,
  hostileRangeSetArb,
  invalidRangeArb,
  type LedgerEventShape,
  ledgerEventArb,
  lineRangeArb,
  notASetArb,
  type RangeArbitraryOptions,
  rangeSetArb,
  type SessionScript,
  type SessionStep,
  sessionArb,
  withJunkArb,
} from './arbitraries.js';
export {
  type CheckRangeAlgebraOptions,
  checkRangeAlgebra,
  RANGE_ALGEBRA_FUNCTIONS,
  type RangeAlgebra,
  RangeAlgebraLawError,
  type RangeAlgebraReport,
} from './check.js';
export {
  coalesceModel,
  countLinesModel,
  coversLineModel,
  dedupeLines,
  intersectLines,
  type LineSet,
  linesOf,
  linesOfRange,
  mergeModel,
  runsOf,
  subtractLines,
} from './model.js';
