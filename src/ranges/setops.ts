/**
 * Intersection and difference: what of a span a set already covers, and what
 * it does not.
 */
import {
  EMPTY,
  firstEndingAtOrAfter,
  fromSpans,
  type Spans,
  SpanWriter,
  singleSpan,
  toSpans,
} from './_spans.js';
import type { LineRange } from './range.js';

/** `a ∩ b` on packed sets: a linear two-pointer walk. */
export function intersectSpans(a: Spans, b: Spans): Spans {
  if (a.n === 0 || b.n === 0) return EMPTY;
  const out = new SpanWriter(Math.min(a.n + b.n, 1024));
  let i = 0;
  let j = a.n === 1 ? firstEndingAtOrAfter(b, a.s[0]!) : 0;
  while (i < a.n && j < b.n) {
    const lo = Math.max(a.s[i]!, b.s[j]!);
    const hi = Math.min(a.e[i]!, b.e[j]!);
    if (lo <= hi) out.push(lo, hi);
    if (a.e[i]! < b.e[j]!) i++;
    else j++;
  }
  return out.done();
}

/** `a − b` on packed sets: a linear two-pointer walk. */
export function subtractSpans(a: Spans, b: Spans): Spans {
  if (a.n === 0) return EMPTY;
  if (b.n === 0) return a;
  const out = new SpanWriter(Math.min(a.n + b.n, 1024));
  let j = a.n === 1 ? firstEndingAtOrAfter(b, a.s[0]!) : 0;
  for (let i = 0; i < a.n; i++) {
    let cur = a.s[i]!;
    const end = a.e[i]!;
    while (j < b.n && b.e[j]! < cur) j++;
    while (j < b.n && b.s[j]! <= end) {
      if (b.s[j]! > cur) out.push(cur, b.s[j]! - 1);
      cur = b.e[j]! + 1;
      if (cur > end) break;
      j++;
    }
    if (cur <= end) out.push(cur, end);
  }
  return out.done();
}

/**
 * The parts of `range` that `set` covers. An invalid `range` gives `[]`;
 * invalid members of `set` are ignored.
 *
 * @example
 * ```ts
 * intersectRange({ start: 80, end: 200 }, [{ start: 100, end: 140 }]);
 * // → [{ start: 100, end: 140 }]
 * intersectRange({ start: 1, end: 10 }, [{ start: 8, end: 20 }, { start: 2, end: 3 }]);
 * // → [{ start: 2, end: 3 }, { start: 8, end: 10 }]
 * ```
 */
export function intersectRange(range: LineRange, set: readonly LineRange[]): LineRange[] {
  const one = singleSpan(range);
  return one.n === 0 ? fromSpans(EMPTY) : fromSpans(intersectSpans(one, toSpans(set)));
}

/**
 * The parts of `range` that `set` does not cover. An invalid `range` gives
 * `[]`; invalid members of `set` are ignored (so they never hide a line).
 *
 * @example
 * ```ts
 * subtractRange({ start: 80, end: 200 }, [{ start: 100, end: 140 }]);
 * // → [{ start: 80, end: 99 }, { start: 141, end: 200 }]
 * ```
 */
export function subtractRange(range: LineRange, set: readonly LineRange[]): LineRange[] {
  const one = singleSpan(range);
  return one.n === 0 ? fromSpans(EMPTY) : fromSpans(subtractSpans(one, toSpans(set)));
}

/**
 * `a ∩ b`: the lines both sets cover. Linear time when both are normalized
 * (they are then read in one pass and never sorted again).
 *
 * @example
 * ```ts
 * intersectRanges([{ start: 1, end: 10 }, { start: 20, end: 30 }], [{ start: 5, end: 25 }]);
 * // → [{ start: 5, end: 10 }, { start: 20, end: 25 }]
 * ```
 */
export function intersectRanges(a: readonly LineRange[], b: readonly LineRange[]): LineRange[] {
  return fromSpans(intersectSpans(toSpans(a), toSpans(b)));
}

/**
 * `a − b`: the lines of `a` that `b` does not cover. Linear time when both are
 * normalized.
 *
 * @example
 * ```ts
 * subtractRanges([{ start: 1, end: 30 }], [{ start: 5, end: 9 }, { start: 20, end: 40 }]);
 * // → [{ start: 1, end: 4 }, { start: 10, end: 19 }]
 * ```
 */
export function subtractRanges(a: readonly LineRange[], b: readonly LineRange[]): LineRange[] {
  return fromSpans(subtractSpans(toSpans(a), toSpans(b)));
}
