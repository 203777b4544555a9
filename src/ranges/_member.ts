/**
 * Internal: reading a caller's set, one member at a time, each member once.
 *
 * The range functions take any value as a set. A member counts only when it is
 * an object whose `start` and `end` are safe integers with `1 <= start <= end`;
 * a primitive (even one whose prototype carries `start` and `end`), a hole, a
 * member whose getter throws or a list whose proxy trap throws reads as no
 * range. Each member is read once per pass, so a getter cannot show one value
 * to a check and another to the code that uses it.
 *
 * Sets are read in one plain pass, the fast way; a pass that a getter or a
 * proxy trap interrupts is thrown away, and the set is read again through the
 * boundary's guarded primitives ({@link guarded}), which give every member as
 * it reads — an unreadable one as no range. No function here catches anything.
 */
import { frozen } from '../boundary/freeze.js';
import { at, lengthOf, listOf, prop, readOr } from '../boundary/read.js';
import type { LineRange } from './range.js';

/** A member's ends, written by {@link readMember}. */
export type Ends = [start: number, end: number];

/** The empty set every function returns for "no lines". */
export const NO_RANGES: LineRange[] = /* @__PURE__ */ frozen([]);

/**
 * Reads `list[i]` into `into` and says whether it is a valid range. A plain
 * read: a getter or proxy trap that throws is not caught (see {@link guarded}).
 */
export function readMember(list: readonly unknown[], i: number, into: Ends): boolean {
  const m = list[i];
  if (typeof m !== 'object' || m === null) return false;
  const start: unknown = (m as { start?: unknown }).start;
  const end: unknown = (m as { end?: unknown }).end;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return false;
  if ((start as number) < 1 || (start as number) > (end as number)) return false;
  into[0] = start as number;
  into[1] = end as number;
  return true;
}

/**
 * `read(set)` in one plain pass; when a getter or proxy trap of `set` throws,
 * `read` again over the set as the boundary reads it: a fresh list of each
 * member's `start` and `end` as plain properties, an unreadable member or end
 * as `undefined` (no range). What `read` decides is the same either way.
 */
export function guarded<T>(set: unknown, read: (list: readonly unknown[]) => T): T {
  const list = set as readonly unknown[];
  const fast = readOr(() => read(list), INTERRUPTED);
  return fast === INTERRUPTED ? read(plainMembers(list)) : fast;
}

/** What a plain pass that a getter or proxy trap interrupted gives. */
const INTERRUPTED: unique symbol = Symbol('interrupted');

/** Each member's ends as plain data, read through the boundary, each member once. */
function plainMembers(set: readonly unknown[]): unknown[] {
  const { list, length } = listOf(set);
  const out: unknown[] = [];
  for (let i = 0; i < length; i++) {
    // A member that is not an object has no ends to read: it stays no range.
    const m = at(list, i);
    out.push({ start: prop(m, 'start'), end: prop(m, 'end') });
  }
  return out;
}

/**
 * A walk over a set that should be normalized, one member at a time, each
 * read once: `next()` moves to the following member and says whether it is a
 * valid range that starts past `end + 1` of the one before (so the set is
 * still sorted, with no overlap and no touch). A plain read: a getter or proxy
 * trap that throws is not caught, and the operation that walks falls back to
 * normalizing the set with `mergeRanges`.
 */
export class Walk {
  // Declared, and set in the constructor: as `#` fields, or as class fields
  // (which define each property before the constructor sets it), the walks of
  // setops.ts measured slower on V8.
  declare private readonly list: readonly unknown[];
  declare private readonly count: number;
  declare private at: number;
  declare private readonly ends: Ends;
  /** The current member's ends; `end` is -1 before the first. */
  declare start: number;
  declare end: number;

  constructor(list: readonly unknown[]) {
    this.list = list;
    this.count = lengthOf(list) ?? 0;
    this.at = -1;
    this.ends = [0, 0];
    this.start = 0;
    this.end = -1;
  }

  /** Whether the set has no member after the current one. */
  get done(): boolean {
    return this.at + 1 >= this.count;
  }

  next(): boolean {
    // The member rule is readMember's; the walk adds only that the set stays normalized.
    const ends = this.ends;
    if (!readMember(this.list, ++this.at, ends) || ends[0] <= this.end + 1) return false;
    this.start = ends[0];
    this.end = ends[1];
    return true;
  }

  /** Whether the members after the current one keep the set normalized. */
  restIsNormalized(): boolean {
    while (!this.done) if (!this.next()) return false;
    return true;
  }
}

/** Whether `x` is a valid range, read once (guarded); its ends go into `into`. */
export function readOne(x: unknown, into: Ends): boolean {
  return guarded([x], (list) => readMember(list, 0, into));
}

/** `range` read once, as a one-member set, or the empty set when it is invalid. */
export function single(range: unknown): LineRange[] {
  const ends: Ends = [0, 0];
  return readOne(range, ends) ? frozen([{ start: ends[0], end: ends[1] }]) : NO_RANGES;
}
