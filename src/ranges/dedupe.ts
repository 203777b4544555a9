/**
 * The size gate at the level of one span: which parts of a span a set already
 * holds in runs long enough to be worth a pointer.
 */
import { EMPTY, fromSpans, type Spans, singleSpan, spansOf, toSpans } from './_spans.js';
import type { LineRange } from './range.js';
import { intersectSpans, subtractSpans } from './setops.js';

/**
 * The result of {@link dedupeRange}: a partition of the range.
 *
 * @example
 * ```ts
 * const { emit, covered }: DedupedRange = dedupeRange({ start: 1, end: 30 }, [{ start: 1, end: 20 }]);
 * // emit: [{ start: 21, end: 30 }], covered: [{ start: 1, end: 20 }]
 * ```
 */
export interface DedupedRange {
  /** The lines to send now: everything not proven held in a long enough run. */
  readonly emit: LineRange[];
  /** The runs already held, each at least `minCovered` lines long. */
  readonly covered: LineRange[];
}

/** Keeps the runs of `held` that are at least `minCovered` lines long. */
export function longRuns(held: Spans, minCovered: number): Spans {
  const s: number[] = [];
  const e: number[] = [];
  for (let i = 0; i < held.n; i++) {
    if (held.e[i]! - held.s[i]! + 1 >= minCovered) {
      s.push(held.s[i]!);
      e.push(held.e[i]!);
    }
  }
  return spansOf(s, e, s.length);
}

/**
 * Splits `range` into what to send and what to point at. `covered` is the
 * maximal runs of `range ∩ served` that are at least `minCovered` lines long;
 * `emit` is the rest of `range`. `emit ∪ covered = range`, and the two are
 * disjoint. A shorter run stays in `emit`: a pointer sentence costs more than a
 * few lines of source, and a span riddled with pointers reads as broken.
 *
 * `minCovered` below 1 acts as 1; `NaN` or a non-number covers nothing (the safe
 * direction). An invalid `range` gives two empty lists.
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
  const one = singleSpan(range);
  if (one.n === 0) return { emit: fromSpans(EMPTY), covered: fromSpans(EMPTY) };
  const min = typeof minCovered !== 'number' ? Number.NaN : Math.max(minCovered, 1);
  const covered = longRuns(intersectSpans(one, toSpans(served)), min);
  return { emit: fromSpans(subtractSpans(one, covered)), covered: fromSpans(covered) };
}
