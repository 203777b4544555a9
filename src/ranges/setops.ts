/**
 * Intersection and difference: what of a span a set already covers, and what
 * it does not.
 *
 * Each operation is one linear walk over two normalized sets. The walk reads
 * every member once, validating as it goes, and gives up (`undefined`) at the
 * first member that is invalid, out of order, overlapping or touching its
 * predecessor; the operation then normalizes both sides with `mergeRanges` and
 * walks again. Sets that come out of this library or a ledger are normalized
 * already, so they are read once and never sorted.
 */
import { type Ends, frozen, lengthOf, NO_RANGES, readMember, single, span } from './_member.js';
import { mergeRanges } from './merge.js';
import type { LineRange } from './range.js';

/** No range ends here: the walk's "before the first member". */
const NONE = -1;

/**
 * Reads `list[i]` into `into` when it is valid and starts past `prevEnd + 1`
 * (so it continues a normalized run); false otherwise.
 */
function readNext(list: readonly unknown[], i: number, prevEnd: number, into: Ends): boolean {
  return readMember(list, i, into) && into[0] > prevEnd + 1;
}

/** Whether members `from..n` of `list` continue a normalized run that ended at `prevEnd`. */
function restIsNormalized(list: readonly unknown[], from: number, n: number, prevEnd: number) {
  const member: Ends = [0, 0];
  let end = prevEnd;
  for (let i = from; i < n; i++) {
    if (!readNext(list, i, end, member)) return false;
    end = member[1];
  }
  return true;
}

/** `a ∩ b` for two normalized lists, or `undefined` when either is not normalized. */
function walkIntersect(a: readonly unknown[], b: readonly unknown[]): LineRange[] | undefined {
  const an = lengthOf(a);
  const bn = lengthOf(b);
  const out: LineRange[] = [];
  const x: Ends = [0, NONE];
  const y: Ends = [0, NONE];
  let i = 0;
  let j = 0;
  if (an > 0 && bn > 0) {
    if (!readNext(a, 0, NONE, x) || !readNext(b, 0, NONE, y)) return undefined;
    for (;;) {
      const lo = Math.max(x[0], y[0]);
      const hi = Math.min(x[1], y[1]);
      // Consecutive pieces never touch: each ends where one side's member ends,
      // and that side's next member starts at least two lines later.
      if (lo <= hi) out.push(span(lo, hi));
      if (x[1] < y[1]) {
        if (++i === an) break;
        if (!readNext(a, i, x[1], x)) return undefined;
      } else {
        if (++j === bn) break;
        if (!readNext(b, j, y[1], y)) return undefined;
      }
    }
  }
  return restIsNormalized(a, i + 1, an, x[1]) && restIsNormalized(b, j + 1, bn, y[1])
    ? out
    : undefined;
}

/** `a − b` for two normalized lists, or `undefined` when either is not normalized. */
function walkSubtract(a: readonly unknown[], b: readonly unknown[]): LineRange[] | undefined {
  const an = lengthOf(a);
  const bn = lengthOf(b);
  const out: LineRange[] = [];
  const x: Ends = [0, NONE];
  const y: Ends = [0, NONE];
  let j = 0;
  if (bn > 0 && !readNext(b, 0, NONE, y)) return undefined;
  for (let i = 0; i < an; i++) {
    if (!readNext(a, i, x[1], x)) return undefined;
    let cur = x[0];
    const end = x[1];
    // Members of b that end before `cur` are behind the walk; one that starts
    // past `end` waits for the next member of a.
    while (j < bn && y[0] <= end) {
      if (y[1] >= cur) {
        if (y[0] > cur) out.push(span(cur, y[0] - 1));
        cur = y[1] + 1;
        if (cur > end) break;
      }
      if (++j < bn && !readNext(b, j, y[1], y)) return undefined;
    }
    if (cur <= end) out.push(span(cur, end));
  }
  return restIsNormalized(b, j + 1, bn, y[1]) ? out : undefined;
}

/**
 * `a ∩ b`: the lines both sets cover. Linear time when both are normalized
 * (they are then read in one pass and never sorted).
 *
 * @example
 * ```ts
 * intersectRanges([{ start: 1, end: 10 }, { start: 20, end: 30 }], [{ start: 5, end: 25 }]);
 * // → [{ start: 5, end: 10 }, { start: 20, end: 25 }]
 * ```
 */
export function intersectRanges(a: readonly LineRange[], b: readonly LineRange[]): LineRange[] {
  return frozen(walkIntersect(a, b) ?? walkIntersect(mergeRanges(a), mergeRanges(b))!);
}

/**
 * `a − b`: the lines of `a` that `b` does not cover. Linear time when both are
 * normalized. Invalid members of `b` are ignored, so they never hide a line.
 *
 * @example
 * ```ts
 * subtractRanges([{ start: 1, end: 30 }], [{ start: 5, end: 9 }, { start: 20, end: 40 }]);
 * // → [{ start: 1, end: 4 }, { start: 10, end: 19 }]
 * ```
 */
export function subtractRanges(a: readonly LineRange[], b: readonly LineRange[]): LineRange[] {
  return frozen(walkSubtract(a, b) ?? walkSubtract(mergeRanges(a), mergeRanges(b))!);
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
  const one = single(range);
  return one.length === 0 ? NO_RANGES : intersectRanges(one, set);
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
  const one = single(range);
  return one.length === 0 ? NO_RANGES : subtractRanges(one, set);
}
