/**
 * Reading ranges a caller handed over — a list, or one range — into fresh,
 * valid ones: the step every reader of a foreign shape that holds ranges
 * takes (an emission, a plan, a pointer's input, a session block).
 */
import { single } from './_member.js';
import { mergeRanges } from './merge.js';
import type { LineRange } from './range.js';
import type { Spans } from './spans.js';

/**
 * Valid members of a foreign list of ranges, each read once (a member whose
 * getter throws is dropped), normalized into fresh ranges.
 */
export function readRanges(raw: unknown): LineRange[] & Spans {
  return mergeRanges(raw as readonly LineRange[]) as LineRange[] & Spans;
}

/** `range` read once as a valid range, copied, else `null`. */
export function readRange(raw: unknown): LineRange | null {
  return single(raw)[0] ?? null;
}
