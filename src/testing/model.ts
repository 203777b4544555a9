/**
 * The line-set reference model: the range algebra restated over plain sets of
 * line numbers, as naively as possible, so that a faster implementation can be
 * checked against it. Quadratic and allocation-heavy by design; never use it on
 * a hot path.
 */
import type { LineRange } from '../ranges/range.js';

/** A set of line numbers. */
export type LineSet = ReadonlySet<number>;

function valid(x: unknown): x is LineRange {
  if (typeof x !== 'object' || x === null) return false;
  const { start, end } = x as { start?: unknown; end?: unknown };
  return (
    Number.isSafeInteger(start) &&
    Number.isSafeInteger(end) &&
    (start as number) >= 1 &&
    (start as number) <= (end as number)
  );
}

/** Every line covered by a valid member of `ranges`. */
export function linesOf(ranges: readonly unknown[]): Set<number> {
  const out = new Set<number>();
  for (const r of ranges) {
    if (!valid(r)) continue;
    for (let line = r.start; line <= r.end; line++) out.add(line);
  }
  return out;
}

/** Every line of one range, or none when it is invalid. */
export function linesOfRange(range: unknown): Set<number> {
  return linesOf([range]);
}

/** The maximal runs of consecutive lines in `lines`, sorted: the normalized form. */
export function runsOf(lines: LineSet): LineRange[] {
  const sorted = [...lines].sort((a, b) => a - b);
  const out: { start: number; end: number }[] = [];
  for (const line of sorted) {
    const last = out[out.length - 1];
    if (last && line === last.end + 1) last.end = line;
    else out.push({ start: line, end: line });
  }
  return out;
}

/** `a ∩ b` as line sets. */
export function intersectLines(a: LineSet, b: LineSet): Set<number> {
  return new Set([...a].filter((line) => b.has(line)));
}

/** `a − b` as line sets. */
export function subtractLines(a: LineSet, b: LineSet): Set<number> {
  return new Set([...a].filter((line) => !b.has(line)));
}

/** The model of `dedupeRange`: covered = runs of `range ∩ served` of at least `minCovered` lines. */
export function dedupeLines(
  range: unknown,
  served: readonly unknown[],
  minCovered: number,
): { emit: Set<number>; covered: Set<number> } {
  const within = linesOfRange(range);
  const held = intersectLines(within, linesOf(served));
  const covered = new Set<number>();
  for (const run of runsOf(held)) {
    if (run.end - run.start + 1 >= Math.max(1, minCovered)) {
      for (let line = run.start; line <= run.end; line++) covered.add(line);
    }
  }
  return { emit: subtractLines(within, covered), covered };
}
