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

const BAD = -1;

/** The start of member `r` if it is a valid range beginning past `prevEnd + 1`, else `BAD`. */
function startAfter(r: unknown, prevEnd: number): number {
  if (typeof r !== 'object' || r === null) return BAD;
  const start = (r as { start?: unknown }).start;
  return typeof start === 'number' &&
    Number.isSafeInteger(start) &&
    start >= 1 &&
    start > prevEnd + 1
    ? start
    : BAD;
}

/** The end of member `r` if it is a safe integer at or past `start`, else `BAD`. */
function endFrom(r: unknown, start: number): number {
  const end = (r as { end?: unknown }).end;
  return typeof end === 'number' && Number.isSafeInteger(end) && end >= start ? end : BAD;
}

/** Whether members `from..` of `list` continue a normalized run that ended at `prevEnd`. */
function restIsNormalized(list: readonly unknown[], from: number, prevEnd: number): boolean {
  for (let i = from; i < list.length; i++) {
    const r = list[i];
    const start = startAfter(r, prevEnd);
    if (start === BAD) return false;
    prevEnd = endFrom(r, start);
    if (prevEnd === BAD) return false;
  }
  return true;
}

/** `a ∩ b` for two normalized arrays, or `undefined` when either is not. */
export function intersectNormalized(a: unknown, b: unknown): LineRange[] | undefined {
  try {
    return Array.isArray(a) && Array.isArray(b) ? walkIntersect(a, b) : undefined;
  } catch {
    return undefined;
  }
}

function walkIntersect(a: readonly unknown[], b: readonly unknown[]): LineRange[] | undefined {
  const an = a.length;
  const bn = b.length;
  const out: LineRange[] = [];
  let i = 0;
  let j = 0;
  let aEnd = -1;
  let bEnd = -1;
  let aStart = 0;
  let bStart = 0;
  if (an > 0 && bn > 0) {
    aStart = startAfter(a[0], -1);
    if (aStart === BAD || (aEnd = endFrom(a[0], aStart)) === BAD) return undefined;
    bStart = startAfter(b[0], -1);
    if (bStart === BAD || (bEnd = endFrom(b[0], bStart)) === BAD) return undefined;
    for (;;) {
      const lo = Math.max(aStart, bStart);
      const hi = Math.min(aEnd, bEnd);
      if (lo <= hi) out.push({ start: lo, end: hi });
      if (aEnd < bEnd) {
        if (++i === an) break;
        const r = a[i];
        aStart = startAfter(r, aEnd);
        if (aStart === BAD || (aEnd = endFrom(r, aStart)) === BAD) return undefined;
      } else {
        if (++j === bn) break;
        const r = b[j];
        bStart = startAfter(r, bEnd);
        if (bStart === BAD || (bEnd = endFrom(r, bStart)) === BAD) return undefined;
      }
    }
  }
  return restIsNormalized(a, i + 1, aEnd) && restIsNormalized(b, j + 1, bEnd) ? out : undefined;
}

/** `a − b` for two normalized arrays, or `undefined` when either is not. */
export function subtractNormalized(a: unknown, b: unknown): LineRange[] | undefined {
  try {
    return Array.isArray(a) && Array.isArray(b) ? walkSubtract(a, b) : undefined;
  } catch {
    return undefined;
  }
}

function walkSubtract(a: readonly unknown[], b: readonly unknown[]): LineRange[] | undefined {
  const an = a.length;
  const bn = b.length;
  const out: LineRange[] = [];
  let j = 0;
  let bStart = 0;
  let bEnd = -1;
  if (bn > 0) {
    bStart = startAfter(b[0], -1);
    if (bStart === BAD || (bEnd = endFrom(b[0], bStart)) === BAD) return undefined;
  }
  let aEnd = -1;
  for (let i = 0; i < an; i++) {
    const r = a[i];
    let cur = startAfter(r, aEnd);
    if (cur === BAD || (aEnd = endFrom(r, cur)) === BAD) return undefined;
    while (j < bn && bStart <= aEnd) {
      if (bEnd >= cur) {
        if (bStart > cur) out.push({ start: cur, end: bStart - 1 });
        cur = bEnd + 1;
        if (cur > aEnd) break;
      }
      if (++j < bn) {
        const next = b[j];
        bStart = startAfter(next, bEnd);
        if (bStart === BAD || (bEnd = endFrom(next, bStart)) === BAD) return undefined;
      }
    }
    if (cur <= aEnd) out.push({ start: cur, end: aEnd });
  }
  return restIsNormalized(b, j + 1, bEnd) ? out : undefined;
}
