/**
 * Internal: the packed form the planner in src/dedup still computes on, until
 * it moves to the public range functions; nothing in src/ranges uses it.
 *
 * `Spans` holds a normalized set as two parallel arrays of line numbers. Not
 * exported from the package: users see `LineRange[]` only.
 */

import { mergeRanges } from './merge.js';
import type { LineRange } from './range.js';

/** A normalized set, packed: `s[i]..e[i]` for `i < n`, sorted, disjoint, non-adjacent. */
export interface Spans {
  readonly s: Lines;
  readonly e: Lines;
  readonly n: number;
}

/** Line numbers; only the first `n` entries of a set are meaningful. */
export type Lines = number[];

export const EMPTY: Spans = { s: [], e: [], n: 0 };

/** Drops invalid members, sorts and merges: `mergeRanges`, packed. */
export function toSpans(ranges: unknown): Spans {
  const set = mergeRanges(ranges as readonly LineRange[]);
  if (set.length === 0) return EMPTY;
  return spansOf(
    set.map((r) => r.start),
    set.map((r) => r.end),
    set.length,
  );
}

/**
 * Wraps packed arrays as a set. A separate function on purpose: building the
 * object at the end of a hot loop, after on-stack replacement, kept deoptimizing.
 */
export function spansOf(s: Lines, e: Lines, n: number): Spans {
  return { s, e, n };
}

/** Unpacks into fresh range objects. */
export function fromSpans(spans: Spans): LineRange[] {
  const { s, e, n } = spans;
  const out: LineRange[] = [];
  for (let i = 0; i < n; i++) out.push({ start: s[i]!, end: e[i]! });
  return out;
}

/** Index of the first span whose end is at or past `line` (binary search). */
export function firstEndingAtOrAfter(spans: Spans, line: number): number {
  let lo = 0;
  let hi = spans.n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (spans.e[mid]! < line) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Builds a normalized set incrementally: callers push spans in ascending order. */
export class SpanWriter {
  private readonly s: number[] = [];
  private readonly e: number[] = [];

  /** `expected` is a size hint some callers pass; plain arrays grow on their own. */
  constructor(expected = 0) {
    void expected;
  }

  /** Appends `start..end`, joining it to the previous span when they overlap or touch. */
  push(start: number, end: number): void {
    if (start > end) return;
    const last = this.s.length - 1;
    if (last >= 0 && start <= this.e[last]! + 1) {
      if (end > this.e[last]!) this.e[last] = end;
      return;
    }
    this.s.push(start);
    this.e.push(end);
  }

  done(): Spans {
    return spansOf(this.s, this.e, this.s.length);
  }
}

/** `a ∩ b` on packed sets: a linear two-pointer walk. */
export function intersectSpans(a: Spans, b: Spans): Spans {
  if (a.n === 0 || b.n === 0) return EMPTY;
  const w = new SpanWriter();
  let i = 0;
  let j = a.n === 1 ? firstEndingAtOrAfter(b, a.s[0]!) : 0;
  while (i < a.n && j < b.n) {
    w.push(Math.max(a.s[i]!, b.s[j]!), Math.min(a.e[i]!, b.e[j]!));
    if (a.e[i]! < b.e[j]!) i++;
    else j++;
  }
  return w.done();
}

/** `a − b` on packed sets: a linear two-pointer walk. */
export function subtractSpans(a: Spans, b: Spans): Spans {
  if (a.n === 0) return EMPTY;
  if (b.n === 0) return a;
  const w = new SpanWriter();
  let j = a.n === 1 ? firstEndingAtOrAfter(b, a.s[0]!) : 0;
  for (let i = 0; i < a.n; i++) {
    let cur = a.s[i]!;
    const end = a.e[i]!;
    while (j < b.n && b.e[j]! < cur) j++;
    while (j < b.n && b.s[j]! <= end) {
      w.push(cur, b.s[j]! - 1);
      cur = b.e[j]! + 1;
      if (cur > end) break;
      j++;
    }
    w.push(cur, end);
  }
  return w.done();
}

/** Keeps the runs of `held` that are at least `minCovered` lines long. */
export function longRuns(held: Spans, minCovered: number): Spans {
  const w = new SpanWriter();
  for (let i = 0; i < held.n; i++) {
    if (held.e[i]! - held.s[i]! + 1 >= minCovered) w.push(held.s[i]!, held.e[i]!);
  }
  return w.done();
}
