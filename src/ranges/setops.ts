/**
 * Intersection and difference: what of a span a set already covers, and what
 * it does not.
 *
 * Each operation is one linear walk over two normalized sets. The walk reads
 * every member once, validating as it goes, and gives up (`undefined`) at the
 * first member that is invalid, out of order, overlapping or touching its
 * predecessor, or that cannot be read; the operation then normalizes both
 * sides with `mergeRanges` and walks again. Sets that come out of this
 * library or a ledger are normalized already, so they are read once and never
 * sorted.
 */
import { frozen } from '../boundary/freeze.js';
import { readOr } from '../boundary/read.js';
import { NO_RANGES, single, Walk } from './_member.js';
import { mergeRanges } from './merge.js';
import type { LineRange } from './range.js';

/**
 * One operation's walk. Each builds its pieces as object literals of its own:
 * a shared helper measured slower on V8, since its one allocation site then
 * serves every caller.
 */
type Walker = (a: Walk, b: Walk) => LineRange[] | undefined;

/** `walker` over `a` and `b`, or over both normalized when either is not. */
function walkNormalized(walker: Walker, a: readonly LineRange[], b: readonly LineRange[]) {
  // A getter or proxy trap that throws ends the plain walk like a member out
  // of order: both sides are then normalized, each member read guarded.
  const out = readOr(() => walker(new Walk(a), new Walk(b)), undefined);
  return frozen(out ?? walker(new Walk(mergeRanges(a)), new Walk(mergeRanges(b)))!);
}

/** `a ∩ b` for two normalized sets, or `undefined` when either is not normalized. */
function intersectWalk(a: Walk, b: Walk): LineRange[] | undefined {
  const out: LineRange[] = [];
  if (a.done || b.done) return out;
  // Both walks start before their first member (ending at -1), so the first
  // turns move them onto it.
  for (;;) {
    const lo = Math.max(a.start, b.start);
    const hi = Math.min(a.end, b.end);
    // Consecutive pieces never touch: each ends where one side's member ends,
    // and that side's next member starts at least two lines later.
    if (lo <= hi) out.push({ start: lo, end: hi });
    // The side whose member ends first moves on; once it has no member left,
    // nothing more intersects, but the other side must still be normalized.
    if (a.end < b.end) {
      if (a.done) return b.restIsNormalized() ? out : undefined;
      if (!a.next()) return undefined;
    } else {
      if (b.done) return a.restIsNormalized() ? out : undefined;
      if (!b.next()) return undefined;
    }
  }
}

/** `a − b` for two normalized sets, or `undefined` when either is not normalized. */
function subtractWalk(a: Walk, b: Walk): LineRange[] | undefined {
  const out: LineRange[] = [];
  let inB = !b.done;
  if (inB && !b.next()) return undefined;
  while (!a.done) {
    if (!a.next()) return undefined;
    let cur = a.start;
    const end = a.end;
    // Members of b that end before `cur` are behind the walk; one that starts
    // past `end` waits for the next member of a.
    while (inB && b.start <= end) {
      if (b.end >= cur) {
        if (b.start > cur) out.push({ start: cur, end: b.start - 1 });
        cur = b.end + 1;
        if (cur > end) break;
      }
      if (b.done) inB = false;
      else if (!b.next()) return undefined;
    }
    if (cur <= end) out.push({ start: cur, end });
  }
  return b.restIsNormalized() ? out : undefined;
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
  return walkNormalized(intersectWalk, a, b);
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
  return walkNormalized(subtractWalk, a, b);
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
