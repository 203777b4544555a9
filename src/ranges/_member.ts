/**
 * Internal: reading a caller's set, one member at a time, each member once.
 *
 * The range functions take any value as a set. A member counts only when it is
 * an object whose `start` and `end` are safe integers with `1 <= start <= end`;
 * a primitive (even one whose prototype carries `start` and `end`), a hole, a
 * member whose getter throws or a list whose proxy trap throws reads as no
 * range. Each member is read once, so a getter cannot show one value to a
 * check and another to the code that uses it.
 */
import type { LineRange } from './range.js';

/** A member's ends, written by {@link readMember}. */
export type Ends = [start: number, end: number];

/**
 * Freezes a set the library hands out (its members come frozen from
 * {@link span}). The type stays the plain `LineRange[]` the rest of the
 * contract speaks; an edit throws in strict code and is ignored elsewhere, so
 * no caller can turn a result into a claim a later call trusts.
 */
export function frozen(set: LineRange[]): LineRange[] {
  Object.freeze(set);
  return set;
}

/** The empty set every function returns for "no lines". */
export const NO_RANGES: LineRange[] = /* @__PURE__ */ frozen([]);

/** The number of members of `x` when it is an array, else 0 (also when a proxy's trap throws). */
export function lengthOf(x: unknown): number {
  let n: unknown = 0;
  try {
    n = Array.isArray(x) ? x.length : 0;
  } catch {
    // A revoked proxy throws even in Array.isArray: no members.
  }
  return Number.isSafeInteger(n) ? Math.max(n as number, 0) : 0;
}

/** Reads `list[i]` into `into` and says whether it is a valid range. */
export function readMember(list: readonly unknown[], i: number, into: Ends): boolean {
  let start: unknown;
  let end: unknown;
  try {
    const m = list[i];
    if (typeof m === 'object' && m !== null) {
      start = (m as { start?: unknown }).start;
      end = (m as { end?: unknown }).end;
    }
  } catch {
    // A getter or proxy trap that throws: no range.
  }
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return false;
  const s = start as number;
  const e = end as number;
  if (s < 1 || s > e) return false;
  into[0] = s;
  into[1] = e;
  return true;
}

/** A frozen range: what the library hands out cannot be edited into a claim. */
export function span(start: number, end: number): LineRange {
  return Object.freeze({ start, end });
}

/** `range` read once, as a frozen one-member set, or the empty set when it is invalid. */
export function single(range: unknown): LineRange[] {
  const ends: Ends = [0, 0];
  return readMember([range], 0, ends) ? frozen([span(ends[0], ends[1])]) : NO_RANGES;
}
