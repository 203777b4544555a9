/**
 * Normalizing a set of ranges: the first step of every operation that takes a
 * set the caller built.
 */
import { frozen } from '../boundary/freeze.js';
import { lengthOf } from '../boundary/read.js';
import { type Ends, guarded, NO_RANGES, readMember } from './_member.js';
import { sortNumbers } from './_sort.js';
import type { LineRange } from './range.js';

/**
 * Drops invalid members, sorts by `start` and merges spans that overlap **or
 * touch** (two adjacent spans describe one contiguous block of source). Never
 * mutates its input; the result is a fresh, normalized, frozen array of fresh
 * ranges. An edited range of it is read, like any input, as what it says now.
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
  return guarded(ranges, merge);
}

/** {@link mergeRanges} over a list read in one plain pass. */
function merge(ranges: readonly unknown[]): LineRange[] {
  const len = lengthOf(ranges) ?? 0;
  if (len === 0) return NO_RANGES;
  // The valid members' ends, in input order. The union of closed intervals
  // depends only on the sorted starts and the sorted ends, so an unsorted input
  // sorts the two numerically, never objects with a comparator.
  const starts = new Float64Array(len);
  const ends = new Float64Array(len);
  const member: Ends = [0, 0];
  let n = 0;
  let sorted = true;
  let maxEnd = 0;
  for (let i = 0; i < len; i++) {
    if (!readMember(ranges, i, member)) continue;
    const start = member[0];
    const end = member[1];
    if (n > 0 && start < starts[n - 1]!) sorted = false;
    if (end > maxEnd) maxEnd = end;
    starts[n] = start;
    ends[n] = end;
    n++;
  }
  if (n === 0) return NO_RANGES;
  if (!sorted) {
    sortNumbers(starts, n, maxEnd);
    sortNumbers(ends, n, maxEnd);
  }
  return sweep(starts, ends, n);
}

/**
 * Joins runs of sorted starts: a run continues while the next start is at most
 * one past the largest end so far. With the starts sorted, `ends` holds either
 * each start's own end or the sorted ends; the sweep is right for both.
 *
 * Both ends of a range go into it through `Math.trunc`, which changes no
 * integer: until V8 optimizes this loop it reads a Float64Array element as a
 * boxed double, even a small integer, and one such value stored in a
 * `{ start, end }` literal makes V8 keep that field as a boxed double in every
 * such literal of the process from then on, the caller's included (see
 * `WHOLE_FILE` in range.ts; `npm run bench -- ranges` times intersect and
 * subtract after `mergeRanges` has run, as they run in an application).
 */
function sweep(starts: Float64Array, ends: Float64Array, n: number): LineRange[] {
  const out: LineRange[] = [];
  let runStart = starts[0]!;
  let runEnd = ends[0]!;
  for (let i = 1; i < n; i++) {
    const start = starts[i]!;
    if (start > runEnd + 1) {
      out.push({ start: Math.trunc(runStart), end: Math.trunc(runEnd) });
      runStart = start;
      runEnd = ends[i]!;
    } else if (ends[i]! > runEnd) {
      runEnd = ends[i]!;
    }
  }
  out.push({ start: Math.trunc(runStart), end: Math.trunc(runEnd) });
  return frozen(out);
}
