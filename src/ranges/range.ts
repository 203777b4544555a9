/**
 * The line range: the one data type every other layer speaks.
 *
 * A range is plain data, `{ start, end }`, 1-based and inclusive. Nothing here
 * clamps or rounds: a member that is not valid is dropped by every function that
 * takes a collection, because a guessed line is a line somebody may withhold.
 */
import { readOne } from './_member.js';

/**
 * A span of source lines, 1-based and inclusive: `{ start: 5, end: 9 }` is five
 * lines. Valid iff both ends are safe integers and `1 <= start <= end`.
 *
 * A *normalized* set of ranges is sorted by `start`, every member is valid, and
 * consecutive members neither overlap nor touch (`next.start > prev.end + 1`).
 * Every function of this library that returns a set returns it normalized; every
 * function that takes a set accepts any array and normalizes it first (cheaply,
 * when it already is).
 */
export interface LineRange {
  readonly start: number;
  readonly end: number;
}

/**
 * Type guard for a valid {@link LineRange}: a non-null object whose `start` and
 * `end` are safe integers with `1 <= start <= end`. Never throws, not even on an
 * object whose getters do.
 *
 * @example
 * ```ts
 * isLineRange({ start: 3, end: 7 });   // true
 * isLineRange({ start: 7, end: 3 });   // false: start > end
 * isLineRange({ start: 0, end: 3 });   // false: lines are 1-based
 * isLineRange({ start: 1.5, end: 3 }); // false: never rounded
 * ```
 */
export function isLineRange(x: unknown): x is LineRange {
  return readOne(x, [0, 0]);
}
