/**
 * Normalizing a set of ranges: the first step of every other operation.
 */
import { fromSpans, toSpans } from './_spans.js';
import type { LineRange } from './range.js';

/**
 * Drops invalid members, sorts by `start` and merges spans that overlap **or
 * touch** (two adjacent spans describe one contiguous block of source). Never
 * mutates its input; the result is a fresh, normalized array.
 *
 * Invalid members (NaN, ±Infinity, fractions, `start > end`, `start < 1`,
 * non-objects) are dropped, never clamped or rounded. A non-array gives `[]`.
 *
 * @example
 * ```ts
 * mergeRanges([{ start: 10, end: 12 }, { start: 5, end: 9 }]);
 * // → [{ start: 5, end: 12 }]            (adjacent spans join)
 * mergeRanges([{ start: 1, end: 3 }, { start: 2.5, end: 9 }, { start: 20, end: 21 }]);
 * // → [{ start: 1, end: 3 }, { start: 20, end: 21 }]   (2.5 is dropped, not floored)
 * ```
 */
export function mergeRanges(ranges: readonly LineRange[]): LineRange[] {
  return fromSpans(toSpans(ranges));
}
