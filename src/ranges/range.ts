/**
 * The line range: the one data type every other layer speaks.
 *
 * A range is plain data, `{ start, end }`, 1-based and inclusive. Nothing here
 * clamps or rounds: a member that is not valid is dropped by every function that
 * takes a collection, because a guessed line is a line somebody may withhold.
 */
import { frozen } from '../boundary/freeze.js';
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

/**
 * The set that reaches past the last line of any file, for "the whole file":
 * lines 1 to 2^30 − 1. No string V8 or SpiderMonkey can hold has that many
 * lines, and that end is still a small integer to every engine.
 *
 * Not `Number.MAX_SAFE_INTEGER`: V8 gives every `{ start, end }` object
 * literal in the process one hidden class, a caller's too, and one end outside
 * the small integers turns that class's `end` into a boxed double for good:
 * each range built from then on allocates a box for its end besides itself,
 * and each read of an end is one more load (`npm run bench -- ranges`).
 */
export const WHOLE_FILE: readonly LineRange[] = /* @__PURE__ */ frozen([
  /* @__PURE__ */ Object.freeze({ start: 1, end: 1_073_741_823 }),
]);
