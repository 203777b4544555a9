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
import { frozen } from '../boundary/freeze.js';
import type { LineRange } from './range.js';

/** A member's ends, written by {@link readMember}. */
export type Ends = [start: number, end: number];

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

/**
 * A walk over a set that should be normalized, one member at a time, each
 * read once: `next()` moves to the following member and says whether it is a
 * valid range that starts past `end + 1` of the one before (so the set is
 * still sorted, with no overlap and no touch). A getter or proxy trap that
 * throws is not caught here: the operation that walks catches it and falls
 * back to normalizing the set with `mergeRanges`, which reads each member
 * guarded.
 */
export class Walk {
  // Declared, and set in the constructor: as `#` fields, or as class fields
  // (which define each property before the constructor sets it), the walks of
  // setops.ts measured slower on V8.
  declare private readonly list: readonly unknown[];
  declare private readonly count: number;
  declare private at: number;
  /** The current member's ends; `end` is -1 before the first. */
  declare start: number;
  declare end: number;

  constructor(list: readonly unknown[]) {
    this.list = list;
    this.count = lengthOf(list);
    this.at = -1;
    this.start = 0;
    this.end = -1;
  }

  /** Whether the set has no member after the current one. */
  get done(): boolean {
    return this.at + 1 >= this.count;
  }

  next(): boolean {
    const m = this.list[++this.at];
    if (typeof m !== 'object' || m === null) return false;
    const start: unknown = (m as { start?: unknown }).start;
    const end: unknown = (m as { end?: unknown }).end;
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return false;
    if ((start as number) <= this.end + 1 || (start as number) > (end as number)) return false;
    this.start = start as number;
    this.end = end as number;
    return true;
  }

  /** Whether the members after the current one keep the set normalized. */
  restIsNormalized(): boolean {
    while (!this.done) if (!this.next()) return false;
    return true;
  }
}

/** `range` read once, as a one-member set, or the empty set when it is invalid. */
export function single(range: unknown): LineRange[] {
  const ends: Ends = [0, 0];
  return readMember([range], 0, ends) ? frozen([{ start: ends[0], end: ends[1] }]) : NO_RANGES;
}
