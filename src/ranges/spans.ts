/**
 * The one span type inside the library: a normalized set of ranges (sorted
 * by `start`, every member valid, consecutive members neither overlapping nor
 * touching), read once at the edge, and the algebra the inside runs on it
 * without reading it again.
 *
 * Not for foreign input: a set a caller hands over becomes `Spans` only
 * through `readRanges` (read.ts; the public functions read it the same way). Everything here trusts its arguments and never validates them.
 */
import { frozen } from '../boundary/freeze.js';
import type { LineRange } from './range.js';

declare const NORMALIZED: unique symbol;

/** A normalized set of ranges, as only the edge readers and this algebra make it. */
export type Spans = readonly LineRange[] & { readonly [NORMALIZED]: true };

/** The empty set. */
export const NO_SPANS: Spans = /* @__PURE__ */ frozen<LineRange>(
  [],
) as readonly LineRange[] as Spans;

/**
 * `list` as `Spans`, for a list its maker built normalized: sorted, valid,
 * neither overlapping nor touching (a clip or a prefix of a set, one range).
 */
export function spansOf(list: readonly LineRange[]): Spans {
  return list as Spans;
}

/** Whether two sets share a line: one walk, nothing allocated. */
export function overlaps(a: Spans, b: Spans): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i]!.end < b[j]!.start) i++;
    else if (b[j]!.end < a[i]!.start) j++;
    else return true;
  }
  return false;
}

/** `a ∪ b`: one linear merge, joining ranges that overlap or touch; untouched ranges are the very objects. */
export function union(a: Spans, b: Spans): Spans {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  const out: LineRange[] = [];
  let x = 0;
  let y = 0;
  while (x < a.length || y < b.length) {
    const r = y >= b.length || (x < a.length && a[x]!.start <= b[y]!.start) ? a[x++]! : b[y++]!;
    const last = out[out.length - 1];
    if (last === undefined || r.start > last.end + 1) out.push(r);
    else if (r.end > last.end) out[out.length - 1] = { start: last.start, end: r.end };
  }
  return out as readonly LineRange[] as Spans;
}

/**
 * The union of every set of `sets`. A linear merge of sets already
 * normalized: `mergeRanges`, which reads and sorts any input, made the
 * 24 × 24 planner bench 18–21% slower (CPU time, alternating rounds).
 */
export function unionAll(sets: readonly Spans[]): Spans {
  let out = NO_SPANS;
  for (const set of sets) out = union(out, set);
  return out;
}

/** `a − b`: the ranges of `a` untouched by `b` are the very objects. */
export function minus(a: Spans, b: Spans): Spans {
  const out: LineRange[] = [];
  let j = 0;
  for (const r of a) {
    while (j < b.length && b[j]!.end < r.start) j++;
    let start = r.start;
    for (let k = j; k < b.length && b[k]!.start <= r.end; k++) {
      if (b[k]!.start > start) out.push({ start, end: b[k]!.start - 1 });
      start = b[k]!.end + 1;
    }
    if (start === r.start) out.push(r);
    else if (start <= r.end) out.push({ start, end: r.end });
  }
  return out as readonly LineRange[] as Spans;
}

/**
 * The pieces of `a ∩ b` that `keep` accepts, told whether the piece is a
 * whole range of `a`: one walk of both sets, range by range, never line by
 * line. The pieces never touch one another, so any of them make a set.
 */
export function piecesOf(
  a: Spans,
  b: Spans,
  keep: (piece: LineRange, whole: boolean) => boolean,
): Spans {
  const out: LineRange[] = [];
  let j = 0;
  for (const r of a) {
    while (j < b.length && b[j]!.end < r.start) j++;
    for (let k = j; k < b.length && b[k]!.start <= r.end; k++) {
      const u = b[k]!;
      const piece = { start: Math.max(u.start, r.start), end: Math.min(u.end, r.end) };
      if (keep(piece, piece.start === r.start && piece.end === r.end)) out.push(piece);
    }
  }
  return out as readonly LineRange[] as Spans;
}

/** The ranges of `runs` that share a line with `set`, whole. */
export function touching(runs: Spans, set: Spans): Spans {
  return runs.filter((r) =>
    overlaps([r] as readonly LineRange[] as Spans, set),
  ) as readonly LineRange[] as Spans;
}
