/**
 * Internal: the packed form the range algebra computes on.
 *
 * `Spans` holds a normalized set as two parallel typed arrays, so the hot loops
 * never touch user objects after one validating read. Not exported from the
 * package: users see `LineRange[]` only.
 */

import { sortNumbers } from './_sort.js';
import type { LineRange } from './range.js';

/** A normalized set, packed: `s[i]..e[i]` for `i < n`, sorted, disjoint, non-adjacent. */
export interface Spans {
  readonly s: Float64Array;
  readonly e: Float64Array;
  readonly n: number;
}

export const EMPTY: Spans = /* @__PURE__ */ Object.freeze({
  s: new Float64Array(0),
  e: new Float64Array(0),
  n: 0,
});

/**
 * Arrays this library returned, with their length at the time: normalized by
 * construction, so `rangesCover` may binary-search them. A result whose length
 * changed since is treated like any other array. Members are typed readonly;
 * code that writes to them anyway gives up this shortcut's guarantee.
 */
const produced: WeakMap<object, number> = /* @__PURE__ */ new WeakMap();

/** Whether `ranges` is a result of this library, unchanged in length. */
export function isProduced(ranges: unknown): boolean {
  return Array.isArray(ranges) && produced.get(ranges) === (ranges as readonly unknown[]).length;
}

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
  if (!Array.isArray(ranges)) return 0;
  try {
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
  const list = ranges as ArrayLike<unknown>;
  let cap = Math.min(len, 1 << 16);
  let s: Float64Array = new Float64Array(cap);
  let e: Float64Array = new Float64Array(cap);
  const pair: [number, number] = [0, 0];
  let n = 0;
  let normalized = true;
  let sortedByStart = true;
  let maxEnd = 0;
  for (let i = 0; i < len; i++) {
    if (!readMember(list, i, pair)) continue;
    const start = pair[0];
    const end = pair[1];
    if (n === cap) {
      cap = Math.min(len, cap * 2);
      const s2 = new Float64Array(cap);
      const e2 = new Float64Array(cap);
      s2.set(s);
      e2.set(e);
      s = s2;
      e = e2;
    }
    if (n > 0) {
      const prevStart = s[n - 1]!;
      if (start < prevStart) sortedByStart = false;
      if (start <= maxEnd + 1) normalized = false;
    }
    if (end > maxEnd) maxEnd = end;
    s[n] = start;
    e[n] = end;
    n++;
  }
  if (n === 0) return EMPTY;
  if (normalized) return { s, e, n };
  if (!sortedByStart) {
    s = sortNumbers(s, n, maxEnd);
    e = sortNumbers(e, n, maxEnd);
  }
  return sweep(s, e, n);
}

/**
 * Merges sorted starts with ends into a normalized set, in place.
 *
 * With starts sorted, `e` is either sorted too (the two-sequence case) or holds
 * each start's own end; in both cases a run continues while the next start is at
 * most one past the running maximum end.
 */
function sweep(s: Float64Array, e: Float64Array, n: number): Spans {
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
  return { s, e, n: out + 1 };
}

/** Packs one range, or nothing when it is not valid. */
export function singleSpan(range: unknown): Spans {
  const pair: [number, number] = [0, 0];
  if (!readMember([range], 0, pair)) return EMPTY;
  return { s: Float64Array.of(pair[0]), e: Float64Array.of(pair[1]), n: 1 };
}

/** Unpacks into fresh range objects, in an array the library recognizes later. */
export function fromSpans(spans: Spans): LineRange[] {
  const out: LineRange[] = new Array(spans.n);
  for (let i = 0; i < spans.n; i++) out[i] = { start: spans.s[i]!, end: spans.e[i]! };
  produced.set(out, spans.n);
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

/** Builds a normalized set incrementally (callers push in order, never overlapping). */
export class SpanWriter {
  private s: Float64Array;
  private e: Float64Array;
  private n = 0;

  constructor(capacity: number) {
    const cap = Math.max(1, capacity);
    this.s = new Float64Array(cap);
    this.e = new Float64Array(cap);
  }

  /** Appends `start..end`, joining it to the previous span when they touch. */
  push(start: number, end: number): void {
    if (start > end) return;
    const last = this.n - 1;
    if (last >= 0 && start <= this.e[last]! + 1) {
      if (end > this.e[last]!) this.e[last] = end;
      return;
    }
    if (this.n === this.s.length) {
      const s2 = new Float64Array(this.n * 2);
      const e2 = new Float64Array(this.n * 2);
      s2.set(this.s);
      e2.set(this.e);
      this.s = s2;
      this.e = e2;
    }
    this.s[this.n] = start;
    this.e[this.n] = end;
    this.n++;
  }

  done(): Spans {
    return this.n === 0 ? EMPTY : { s: this.s, e: this.e, n: this.n };
  }
}
