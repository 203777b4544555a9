/**
 * The size gate at the level of one span: which parts of a span a set already
 * holds in runs long enough to be worth a pointer.
 */
import { frozen } from '../boundary/freeze.js';
import { NO_RANGES, single } from './_member.js';
import type { LineRange } from './range.js';
import { intersectRanges, subtractRanges } from './setops.js';

/**
 * The result of {@link dedupeRange}: a partition of the range.
 */
export interface DedupedRange {
  /** The lines to send now: everything not proven held in a long enough run. */
  readonly emit: LineRange[];
  /** The runs already held, each at least `minCovered` lines long. */
  readonly covered: LineRange[];
}

/**
 * Splits `range` into what to send and what to point at. `covered` is the
 * maximal runs of `range ∩ served` that are at least `minCovered` lines long;
 * `emit` is the rest of `range`. `emit ∪ covered = range`, and the two are
 * disjoint. A shorter run stays in `emit`: a pointer sentence costs more than a
 * few lines of source, and a span riddled with pointers reads as broken.
 *
 * `minCovered` below 1 acts as 1; `NaN` or a non-number covers nothing (the safe
 * direction). An invalid `range` gives two empty lists. The result and its
 * lists are frozen.
 *
 * @example
 * ```ts
 * dedupeRange({ start: 80, end: 200 }, [{ start: 100, end: 140 }]);
 * // → { emit: [{ start: 80, end: 99 }, { start: 141, end: 200 }],
 * //     covered: [{ start: 100, end: 140 }] }
 * dedupeRange({ start: 1, end: 20 }, [{ start: 14, end: 20 }]); // a 7-line overlap
 * // → { emit: [{ start: 1, end: 20 }], covered: [] }
 * ```
 */
export function dedupeRange(
  range: LineRange,
  served: readonly LineRange[],
  minCovered = 8,
): DedupedRange {
  const one = single(range);
  if (one.length === 0) return Object.freeze({ emit: NO_RANGES, covered: NO_RANGES });
  const min = typeof minCovered === 'number' ? Math.max(minCovered, 1) : Number.NaN;
  const covered = frozen(
    intersectRanges(one, served).filter((run) => run.end - run.start + 1 >= min),
  );
  return Object.freeze({ emit: subtractRanges(one, covered), covered });
}
