/**
 * Intersection and difference: what of a span a set already covers, and what
 * it does not.
 */

import { intersectNormalized, subtractNormalized } from './_direct.js';
import {
  EMPTY,
  firstEndingAtOrAfter,
  fromSpans,
  markProduced,
  type Spans,
  singleSpan,
  spansOf,
  toSpans,
} from './_spans.js';
import type { LineRange } from './range.js';

/** Where a walk over `b` starts: past the spans that end before a lone `a` span begins. */
function start(a: Spans, b: Spans): number {
  return a.n === 1 ? firstEndingAtOrAfter(b, a.s[0]!) : 0;
}

/**
 * `a ∩ b` on packed sets: a linear two-pointer walk.
 *
 * The walks below write into arrays the caller allocates and return only a
 * count. Code after a hot loop that allocates or calls can keep a function in a
 * deoptimization cycle under on-stack replacement (even reading `.length`); a
 * loop that returns a local count cannot.
 */
export function intersectSpans(a: Spans, b: Spans): Spans {
  if (a.n === 0 || b.n === 0) return EMPTY;
  const s: number[] = [];
  const e: number[] = [];
  return spansOf(s, e, intersectInto(a, b, start(a, b), s, e));
}

function intersectInto(a: Spans, b: Spans, j: number, s: number[], e: number[]): number {
  const { s: as, e: ae, n: an } = a;
  const { s: bs, e: be, n: bn } = b;
  let i = 0;
  let n = 0;
  while (i < an && j < bn) {
    const lo = Math.max(as[i]!, bs[j]!);
    const aEnd = ae[i]!;
    const bEnd = be[j]!;
    const hi = Math.min(aEnd, bEnd);
    // Consecutive pieces never touch: each ends where one side's span ends,
    // and that side's next span starts at least two lines later.
    if (lo <= hi) {
      s.push(lo);
      e.push(hi);
      n++;
    }
    if (aEnd < bEnd) i++;
    else j++;
  }
  return n;
}

/** `a − b` on packed sets: a linear two-pointer walk, like {@link intersectSpans}. */
export function subtractSpans(a: Spans, b: Spans): Spans {
  if (a.n === 0) return EMPTY;
  if (b.n === 0) return a;
  const s: number[] = [];
  const e: number[] = [];
  return spansOf(s, e, subtractInto(a, b, start(a, b), s, e));
}

function subtractInto(a: Spans, b: Spans, j: number, s: number[], e: number[]): number {
  const { s: as, e: ae, n: an } = a;
  const { s: bs, e: be, n: bn } = b;
  let n = 0;
  for (let i = 0; i < an; i++) {
    let cur = as[i]!;
    const end = ae[i]!;
    while (j < bn && be[j]! < cur) j++;
    while (j < bn && bs[j]! <= end) {
      if (bs[j]! > cur) {
        s.push(cur);
        e.push(bs[j]! - 1);
        n++;
      }
      cur = be[j]! + 1;
      if (cur > end) break;
      j++;
    }
    if (cur <= end) {
      s.push(cur);
      e.push(end);
      n++;
    }
  }
  return n;
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
  const direct = intersectNormalized(a, b);
  if (direct) return markProduced(direct);
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
  const direct = subtractNormalized(a, b);
  if (direct) return markProduced(direct);
  return fromSpans(subtractSpans(toSpans(a), toSpans(b)));
}
