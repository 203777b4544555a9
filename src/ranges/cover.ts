/**
 * Reading a set: membership and size.
 */
import { isProduced, toSpans } from './_spans.js';
import { isLineRange, type LineRange } from './range.js';

/**
 * Whether `line` lies in some valid member of `set`. O(log n) on a set this
 * library returned (normalized by construction); any other array is
 * scanned once, without allocating, so an unsorted set still answers correctly.
 *
 * @example
 * ```ts
 * const held = mergeRanges([{ start: 100, end: 140 }]);
 * rangesCover(held, 120); // true
 * rangesCover(held, 141); // false
 * ```
 */
export function rangesCover(set: readonly LineRange[], line: number): boolean {
  if (!Number.isSafeInteger(line) || line < 1) return false;
  if (isProduced(set)) {
    const i = binarySearch(set, line);
    return i < set.length && set[i]!.start <= line;
  }
  let len: number;
  try {
    if (!Array.isArray(set)) return false;
    len = set.length;
  } catch {
    return false;
  }
  for (let i = 0; i < len; i++) {
    let r: unknown;
    try {
      r = set[i];
    } catch {
      continue;
    }
    if (isLineRange(r) && r.start <= line && line <= r.end) return true;
  }
  return false;
}

/** Index of the first member of a normalized set whose end is at or past `line`. */
function binarySearch(set: readonly LineRange[], line: number): number {
  let lo = 0;
  let hi = set.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (set[mid]!.end < line) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The number of distinct lines `set` covers (overlaps count once, invalid
 * members not at all).
 *
 * @example
 * ```ts
 * countLines([{ start: 1, end: 10 }, { start: 5, end: 12 }]); // 12
 * countLines([{ start: 3, end: 1 }]);                          // 0
 * ```
 */
export function countLines(set: readonly LineRange[]): number {
  const spans = toSpans(set);
  let total = 0;
  for (let i = 0; i < spans.n; i++) total += spans.e[i]! - spans.s[i]! + 1;
  return total;
}
