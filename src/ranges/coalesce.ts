/**
 * Bounding a set of ranges: what the ledger keeps per file when a caller
 * reports more spans than it retains.
 */
import { fromSpans, spansOf, toSpans } from './_spans.js';
import type { LineRange } from './range.js';

/**
 * The result of {@link coalesceRanges}.
 *
 * @example
 * ```ts
 * const { ranges, truncated }: CoalescedRanges = coalesceRanges([{ start: 1, end: 2 }, { start: 9, end: 9 }], 1);
 * // ranges: [{ start: 1, end: 2 }], truncated: true
 * ```
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
  const spans = toSpans(ranges);
  const keep = Number.isSafeInteger(max) && max >= 0 ? max : 0;
  if (spans.n <= keep) return { ranges: fromSpans(spans), truncated: false };
  const order = new Array<number>(spans.n);
  for (let i = 0; i < spans.n; i++) order[i] = i;
  // Larger first; on equal size the earlier span (smaller index) wins.
  order.sort((a, b) => spans.e[b]! - spans.s[b]! - (spans.e[a]! - spans.s[a]!) || a - b);
  const kept = order.slice(0, keep).sort((a, b) => a - b);
  const s = kept.map((i) => spans.s[i]!);
  const e = kept.map((i) => spans.e[i]!);
  return { ranges: fromSpans(spansOf(s, e, keep)), truncated: true };
}
