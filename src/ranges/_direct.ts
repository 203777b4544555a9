/**
 * Internal: set operations that walk two already-normalized arrays of range
 * objects directly, validating each member as they reach it.
 *
 * Most sets that reach `intersectRanges` / `subtractRanges` come out of this
 * library or out of a ledger and are normalized already; packing them first
 * would cost more than the walk. Each function returns `undefined` the moment
 * it meets a member that is invalid, out of order, overlapping or touching its
 * predecessor (or a getter that throws), and the caller falls back to the
 * normalizing path. Every member is read once, so the answer is exact for any
 * input that passes.
 */
import type { LineRange } from './range.js';

/** A cursor over a presumed-normalized array: the current member's ends. */
interface Cursor {
  list: readonly unknown[];
  len: number;
  i: number;
  start: number;
  end: number;
}

/** Loads member `c.i`; false when it breaks the normalized invariant. */
function load(c: Cursor, prevEnd: number): boolean {
  const r = c.list[c.i] as { start?: unknown; end?: unknown } | null | undefined;
  if (typeof r !== 'object' || r === null) return false;
  const start = r.start;
  const end = r.end;
  if (typeof start !== 'number' || typeof end !== 'number') return false;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return false;
  if (start < 1 || start > end || start <= prevEnd + 1) return false;
  c.start = start;
  c.end = end;
  return true;
}

function cursor(list: unknown): Cursor | undefined {
  if (!Array.isArray(list)) return undefined;
  const c: Cursor = { list, len: list.length, i: 0, start: 0, end: 0 };
  return c.len === 0 || load(c, -1) ? c : undefined;
}

/** Moves to the next member; false when it breaks the invariant. */
function advance(c: Cursor): boolean {
  const prevEnd = c.end;
  c.i++;
  return c.i >= c.len || load(c, prevEnd);
}

/** Checks the members the walk did not need to reach. */
function restIsNormalized(c: Cursor): boolean {
  while (c.i < c.len) if (!advance(c)) return false;
  return true;
}

/** `a ∩ b` for two normalized arrays, or `undefined` when either is not. */
export function intersectNormalized(a: unknown, b: unknown): LineRange[] | undefined {
  try {
    const ca = cursor(a);
    const cb = cursor(b);
    if (!ca || !cb) return undefined;
    const out: LineRange[] = [];
    while (ca.i < ca.len && cb.i < cb.len) {
      const lo = Math.max(ca.start, cb.start);
      const hi = Math.min(ca.end, cb.end);
      if (lo <= hi) out.push({ start: lo, end: hi });
      if (!(ca.end < cb.end ? advance(ca) : advance(cb))) return undefined;
    }
    return restIsNormalized(ca) && restIsNormalized(cb) ? out : undefined;
  } catch {
    return undefined;
  }
}

/** `a − b` for two normalized arrays, or `undefined` when either is not. */
export function subtractNormalized(a: unknown, b: unknown): LineRange[] | undefined {
  try {
    const ca = cursor(a);
    const cb = cursor(b);
    if (!ca || !cb) return undefined;
    const out: LineRange[] = [];
    for (; ca.i < ca.len; ) {
      let cur = ca.start;
      const end = ca.end;
      while (cb.i < cb.len && cb.end < cur) if (!advance(cb)) return undefined;
      while (cb.i < cb.len && cb.start <= end) {
        if (cb.start > cur) out.push({ start: cur, end: cb.start - 1 });
        cur = cb.end + 1;
        if (cur > end) break;
        if (!advance(cb)) return undefined;
      }
      if (cur <= end) out.push({ start: cur, end });
      if (!advance(ca)) return undefined;
    }
    return restIsNormalized(cb) ? out : undefined;
  } catch {
    return undefined;
  }
}
