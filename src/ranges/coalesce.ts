/**
 * Bounding a set of ranges: what the ledger keeps per file when a caller
 * reports more spans than it retains.
 */
import { frozen } from '../boundary/freeze.js';
import { isNonNegativeInteger } from '../boundary/read.js';
import { mergeRanges } from './merge.js';
import type { LineRange } from './range.js';

/**
 * The result of {@link coalesceRanges}.
 */
export interface CoalescedRanges {
  /** At most `max` normalized ranges, sorted by line. */
  readonly ranges: LineRange[];
  /** True when some merged span was left out to respect `max`. */
  readonly truncated: boolean;
}

/**
 * {@link mergeRanges}, then, when more than `max` spans remain, keeps the `max`
 * largest (by line count; a tie keeps the earlier start) and re-sorts them by
 * line. The cut only ever forgets lines, never adds one: a forgotten span costs a
 * re-send later, an invented one would withhold source the reader never saw.
 *
 * A `max` that is not a non-negative safe integer keeps nothing.
 *
 * @example
 * ```ts
 * coalesceRanges([{ start: 1, end: 2 }, { start: 10, end: 30 }, { start: 40, end: 45 }], 2);
 * // → { ranges: [{ start: 10, end: 30 }, { start: 40, end: 45 }], truncated: true }
 * coalesceRanges([{ start: 1, end: 5 }, { start: 6, end: 9 }]);
 * // → { ranges: [{ start: 1, end: 9 }], truncated: false }
 * ```
 */
export function coalesceRanges(ranges: readonly LineRange[], max = 24): CoalescedRanges {
  const merged = mergeRanges(ranges);
  const keep = isNonNegativeInteger(max) ? max : 0;
  if (merged.length <= keep) return Object.freeze({ ranges: merged, truncated: false });
  const size = (i: number): number => merged[i]!.end - merged[i]!.start;
  // Larger first; the sort is stable, so on equal size the earlier span wins.
  const largest = [...merged.keys()].sort((a, b) => size(b) - size(a)).slice(0, keep);
  const kept = largest.sort((a, b) => a - b).map((i) => merged[i]!);
  return Object.freeze({ ranges: frozen(kept), truncated: true });
}
