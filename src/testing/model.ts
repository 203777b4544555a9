/**
 * The line-set reference model: the range algebra restated over plain sets of
 * line numbers, as naively as possible, so that a faster implementation can be
 * checked against it. Quadratic and allocation-heavy by design, and it expands
 * every range line by line: give it small line numbers (hundreds, not 2^50) and
 * never use it on a hot path.
 *
 * Every function here is total on junk, like the algebra it models: a member
 * that is not a valid range (or whose getters throw) covers nothing.
 */
import { at, listOf, prop } from '../boundary/read.js';
import type { LineRange } from '../ranges/range.js';

/**
 * A set of line numbers.
 */
export type LineSet = ReadonlySet<number>;

/** The ends of `x` when it is a valid range, read once; `undefined` otherwise. */
function ends(x: unknown): [number, number] | undefined {
  const start = prop(x, 'start');
  const end = prop(x, 'end');
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return undefined;
  const s = start as number;
  const e = end as number;
  return s >= 1 && s <= e ? [s, e] : undefined;
}

/** Each member of an array, `undefined` for a hole, a throwing index or a non-array. */
function membersOf(ranges: unknown): unknown[] {
  const { list, length } = listOf(ranges);
  const out: unknown[] = [];
  for (let i = 0; i < length; i++) out.push(at(list, i));
  return out;
}

/**
 * Every line covered by a valid member of `ranges`.
 *
 * @example
 * ```ts
 * [...linesOf([{ start: 2, end: 4 }, { start: 9, end: 3 }])]; // [2, 3, 4]: 9-3 is dropped
 * ```
 */
export function linesOf(ranges: readonly unknown[]): Set<number> {
  const out = new Set<number>();
  for (const r of membersOf(ranges)) {
    const pair = ends(r);
    if (!pair) continue;
    for (let line = pair[0]; line <= pair[1]; line++) out.add(line);
  }
  return out;
}

/**
 * Every line of one range, or none when it is invalid.
 *
 * @example
 * ```ts
 * [...linesOfRange({ start: 5, end: 6 })]; // [5, 6]
 * linesOfRange({ start: 0, end: 6 }).size; // 0
 * ```
 */
export function linesOfRange(range: unknown): Set<number> {
  return linesOf([range]);
}

/**
 * The maximal runs of consecutive lines in `lines`, sorted: the normalized form.
 *
 * @example
 * ```ts
 * runsOf(new Set([1, 2, 3, 7])); // [{ start: 1, end: 3 }, { start: 7, end: 7 }]
 * ```
 */
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

/**
 * `a ∩ b` as line sets.
 *
 * @example
 * ```ts
 * [...intersectLines(new Set([1, 2, 3]), new Set([2, 3, 4]))]; // [2, 3]
 * ```
 */
export function intersectLines(a: LineSet, b: LineSet): Set<number> {
  return new Set([...a].filter((line) => b.has(line)));
}

/**
 * `a − b` as line sets.
 *
 * @example
 * ```ts
 * [...subtractLines(new Set([1, 2, 3]), new Set([2]))]; // [1, 3]
 * ```
 */
export function subtractLines(a: LineSet, b: LineSet): Set<number> {
  return new Set([...a].filter((line) => !b.has(line)));
}

/**
 * The model of `mergeRanges`: the runs of every line a valid member covers.
 *
 * @example
 * ```ts
 * mergeModel([{ start: 5, end: 9 }, { start: 10, end: 12 }]); // [{ start: 5, end: 12 }]
 * ```
 */
export function mergeModel(ranges: readonly unknown[]): LineRange[] {
  return runsOf(linesOf(ranges));
}

/**
 * The model of `dedupeRange`: covered = runs of `range ∩ served` of at least
 * `minCovered` lines (below 1 acts as 1; `NaN` or a non-number covers nothing).
 *
 * @example
 * ```ts
 * const { emit, covered } = dedupeLines({ start: 1, end: 20 }, [{ start: 1, end: 10 }], 8);
 * runsOf(emit);    // [{ start: 11, end: 20 }]
 * runsOf(covered); // [{ start: 1, end: 10 }]
 * ```
 */
export function dedupeLines(
  range: unknown,
  served: readonly unknown[],
  minCovered: unknown = 8,
): { emit: Set<number>; covered: Set<number> } {
  const min = typeof minCovered === 'number' ? Math.max(1, minCovered) : Number.NaN;
  const within = linesOfRange(range);
  const held = intersectLines(within, linesOf(served));
  const covered = new Set<number>();
  for (const run of runsOf(held)) {
    if (run.end - run.start + 1 >= min) {
      for (let line = run.start; line <= run.end; line++) covered.add(line);
    }
  }
  return { emit: subtractLines(within, covered), covered };
}

/**
 * The model of `coalesceRanges`: the merged runs, and when more than `max`
 * remain, the `max` largest (a tie keeps the earlier start), sorted by line. A
 * `max` that is not a non-negative safe integer keeps nothing.
 *
 * @example
 * ```ts
 * coalesceModel([{ start: 1, end: 1 }, { start: 5, end: 9 }], 1);
 * // → { ranges: [{ start: 5, end: 9 }], truncated: true }
 * ```
 */
export function coalesceModel(
  ranges: readonly unknown[],
  max: unknown = 24,
): { ranges: LineRange[]; truncated: boolean } {
  const runs = mergeModel(ranges);
  const keep = Number.isSafeInteger(max) && (max as number) >= 0 ? (max as number) : 0;
  if (runs.length <= keep) return { ranges: runs, truncated: false };
  const size = (r: LineRange): number => r.end - r.start + 1;
  const kept = [...runs]
    .sort((a, b) => size(b) - size(a) || a.start - b.start)
    .slice(0, keep)
    .sort((a, b) => a.start - b.start);
  return { ranges: kept, truncated: true };
}

/**
 * The model of `rangesCover`: whether some valid member holds `line`.
 *
 * @example
 * ```ts
 * coversLineModel([{ start: 3, end: 4 }], 4); // true
 * ```
 */
export function coversLineModel(ranges: readonly unknown[], line: unknown): boolean {
  if (!Number.isSafeInteger(line)) return false;
  const n = line as number;
  return membersOf(ranges).some((r) => {
    const pair = ends(r);
    return pair !== undefined && pair[0] <= n && n <= pair[1];
  });
}

/**
 * The model of `countLines`: the number of distinct lines covered.
 *
 * @example
 * ```ts
 * countLinesModel([{ start: 1, end: 10 }, { start: 5, end: 12 }]); // 12
 * ```
 */
export function countLinesModel(ranges: readonly unknown[]): number {
  return linesOf(ranges).size;
}
