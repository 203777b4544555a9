/**
 * Reading a set: membership and size.
 */
import { lengthOf } from '../boundary/read.js';
import { type Ends, guarded, readMember } from './_member.js';
import { mergeRanges } from './merge.js';
import type { LineRange } from './range.js';

/**
 * Whether `line` lies in some valid member of `set`. One pass that stops at
 * the first member holding the line; nothing is allocated and no order is
 * assumed, so an unsorted set, or an edited copy of a result, answers exactly
 * what its valid members say. An invalid member holds no line.
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
  return guarded(set, (list) => {
    const n = lengthOf(list) ?? 0;
    const member: Ends = [0, 0];
    for (let i = 0; i < n; i++) {
      if (readMember(list, i, member) && member[0] <= line && line <= member[1]) return true;
    }
    return false;
  });
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
  let total = 0;
  for (const { start, end } of mergeRanges(set)) total += end - start + 1;
  return total;
}
