/**
 * Internal: the packed form the planner in src/dedup still computes on, until
 * it moves to the public range functions; nothing in src/ranges uses it.
 *
 * `Spans` holds a normalized set as two parallel arrays of line numbers, so the
 * hot loops never touch user objects after one validating read. Plain arrays,
 * not typed ones: they live on the young heap, and small integers stay unboxed
 * when they become range objects again. Not exported from the package: users
 * see `LineRange[]` only.
 */

import { sortNumbers } from './_sort.js';
import type { LineRange } from './range.js';

/** A normalized set, packed: `s[i]..e[i]` for `i < n`, sorted, disjoint, non-adjacent. */
export interface Spans {
  readonly s: Lines;
  readonly e: Lines;
  readonly n: number;
}

/**
 * Line numbers: a plain array, or a typed one when a large input is packed
 * (preallocated once, it fills several times faster than a growing array).
 * Only the first `n` entries of a set are meaningful.
 */
export type Lines = number[] | Float64Array;

/** Inputs at least this long pack into typed arrays; smaller ones stay on the young heap. */
const TYPED_FROM = 1024;

export const EMPTY: Spans = { s: [], e: [], n: 0 };

/** Reads a member's ends into `out`; false when invalid or when reading throws. */
function readMember(list: ArrayLike<unknown>, i: number, out: [number, number]): boolean {
  let start: unknown;
  let end: unknown;
  try {
    const r = list[i];
    if (typeof r !== 'object' || r === null) return false;
    start = (r as { start?: unknown }).start;
    end = (r as { end?: unknown }).end;
  } catch {
    return false;
  }
  if (typeof start !== 'number' || typeof end !== 'number') return false;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return false;
  if (start < 1 || start > end) return false;
  out[0] = start;
  out[1] = end;
  return true;
}

/** The length of an array-like, or 0 for anything else (or a length that throws). */
function lengthOf(ranges: unknown): number {
  try {
    // Array.isArray throws on a revoked proxy, so it is inside the guard too.
    if (!Array.isArray(ranges)) return 0;
    const len = ranges.length;
    return Number.isSafeInteger(len) && len > 0 ? len : 0;
  } catch {
    return 0;
  }
}

/**
 * Drops invalid members, sorts and merges overlapping or adjacent ones.
 *
 * Already-normalized input is copied in one pass; input sorted by start merges
 * with a running maximum; anything else sorts starts and ends independently
 * (the union of intervals depends only on the two sorted sequences) so the sort
 * is a numeric one on typed arrays, never a comparator over objects.
 */
export function toSpans(ranges: unknown): Spans {
  const len = lengthOf(ranges);
  if (len === 0) return EMPTY;
  let packed: Packed;
  try {
    packed = pack(ranges as readonly unknown[], len, readFast);
  } catch {
    // A getter or proxy threw somewhere: read again, one guarded member at a time.
    packed = pack(ranges as readonly unknown[], len, readMember);
  }
  const { n, normalized, sortedByStart, maxEnd } = packed;
  const { s, e } = packed;
  if (n === 0) return EMPTY;
  if (normalized) return { s, e, n };
  if (!sortedByStart) {
    sortNumbers(s, n, maxEnd);
    sortNumbers(e, n, maxEnd);
  }
  return sweep(s, e, n);
}

interface Packed {
  s: Lines;
  e: Lines;
  n: number;
  normalized: boolean;
  sortedByStart: boolean;
  maxEnd: number;
}

type Reader = (list: ArrayLike<unknown>, i: number, out: [number, number]) => boolean;

/** Like `readMember`, without the guard: the caller catches and retries guarded. */
function readFast(list: ArrayLike<unknown>, i: number, out: [number, number]): boolean {
  const r = list[i] as { start?: unknown; end?: unknown } | null | undefined;
  if (typeof r !== 'object' || r === null) return false;
  const start = r.start;
  const end = r.end;
  if (typeof start !== 'number' || typeof end !== 'number') return false;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return false;
  if (start < 1 || start > end) return false;
  out[0] = start;
  out[1] = end;
  return true;
}

/** One pass over the members: valid ones into typed arrays, and what order they came in. */
function pack(list: readonly unknown[], len: number, read: Reader): Packed {
  const typed = len >= TYPED_FROM;
  const s: Lines = typed ? new Float64Array(len) : [];
  const e: Lines = typed ? new Float64Array(len) : [];
  const pair: [number, number] = [0, 0];
  let n = 0;
  let normalized = true;
  let sortedByStart = true;
  let prevStart = 0;
  let maxEnd = 0;
  for (let i = 0; i < len; i++) {
    if (!read(list, i, pair)) continue;
    const start = pair[0];
    const end = pair[1];
    if (n > 0) {
      if (start < prevStart) sortedByStart = false;
      if (start <= maxEnd + 1) normalized = false;
    }
    prevStart = start;
    if (end > maxEnd) maxEnd = end;
    s[n] = start;
    e[n] = end;
    n++;
  }
  return { s, e, n, normalized, sortedByStart, maxEnd };
}

/**
 * Merges sorted starts with ends into a normalized set, in place.
 *
 * With starts sorted, `e` is either sorted too (the two-sequence case) or holds
 * each start's own end; in both cases a run continues while the next start is at
 * most one past the running maximum end.
 */
function sweep(s: Lines, e: Lines, n: number): Spans {
  let out = 0;
  let curStart = s[0]!;
  let curEnd = e[0]!;
  for (let i = 1; i < n; i++) {
    const start = s[i]!;
    const end = e[i]!;
    if (start <= curEnd + 1) {
      if (end > curEnd) curEnd = end;
    } else {
      s[out] = curStart;
      e[out] = curEnd;
      out++;
      curStart = start;
      curEnd = end;
    }
  }
  s[out] = curStart;
  e[out] = curEnd;
  return spansOf(s, e, out + 1);
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
