/**
 * Internal: what the planner asks of normalized sets it built itself (sorted,
 * disjoint, not touching), in one walk each: no reading them as foreign input.
 */
import type { LineRange } from '../ranges/range.js';

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

/** `a` minus `b`, both normalized: the ranges of `a` untouched by `b` are the very objects. */
export function minus(a: readonly LineRange[], b: readonly LineRange[]): LineRange[] {
  const out: LineRange[] = [];
  let j = 0;
  for (const r of a) {
    while (j < b.length && b[j]!.end < r.start) j++;
    let start = r.start;
    for (let k = j; k < b.length && b[k]!.start <= r.end; k++) {
      if (b[k]!.start > start) out.push({ start, end: b[k]!.start - 1 });
      start = b[k]!.end + 1;
    }
    if (start === r.start) out.push(r);
    else if (start <= r.end) out.push({ start, end: r.end });
  }
  return out;
}

/**
 * The first line of `a` in none of `sets` (each normalized), or `null`:
 * where a budget's cut begins.
 */
export function firstOutside(
  a: readonly LineRange[],
  sets: readonly (readonly LineRange[])[],
): number | null {
  const at = sets.map(() => 0);
  for (const r of a) {
    let line = r.start;
    for (let moved = true; moved && line <= r.end; ) {
      moved = false;
      // Counted by hand: `entries()` made a pair each step, most of the garbage
      // of a call the budget cuts.
      let i = 0;
      for (const set of sets) {
        while (at[i]! < set.length && set[at[i]!]!.end < line) at[i]!++;
        const s = set[at[i++]!];
        if (s !== undefined && s.start <= line) {
          line = s.end + 1;
          moved = true;
        }
      }
    }
    if (line <= r.end) return line;
  }
  return null;
}
