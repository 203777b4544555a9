/**
 * Internal: two questions the planner asks of normalized sets, answered
 * without allocating.
 */
import type { LineRange } from '../ranges/range.js';

/** Whether a held run is long enough to earn a pointer of its own. */
export function earnsPointer(run: LineRange, minCoveredLines: number): boolean {
  return run.end - run.start + 1 >= minCoveredLines;
}

/** Whether two normalized sets share a line: one walk, nothing allocated. */
export function shareALine(a: readonly LineRange[], b: readonly LineRange[]): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i]!.end < b[j]!.start) i++;
    else if (b[j]!.end < a[i]!.start) j++;
    else return true;
  }
  return false;
}
