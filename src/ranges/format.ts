/**
 * Naming spans for a reader: `L12`, `L12-40`.
 */
import { isNonNegativeInteger } from '../boundary/read.js';
import { mergeRanges } from './merge.js';
import type { LineRange } from './range.js';

/**
 * Formats a set as `L12`, `L12-40`, … joined by `, `, after merging it. Past
 * `max` spans the rest is summarized as `, +N more span` (or `spans`). A `max`
 * that is not a non-negative safe integer acts as the default, 4.
 *
 * @example
 * ```ts
 * formatSpans([{ start: 12, end: 12 }, { start: 20, end: 40 }]); // 'L12, L20-40'
 * formatSpans([1, 3, 5, 7, 9, 11].map((n) => ({ start: n, end: n })), 4);
 * // 'L1, L3, L5, L7, +2 more spans'
 * ```
 */
export function formatSpans(set: readonly LineRange[], max = 4): string {
  return spansText(mergeRanges(set), isNonNegativeInteger(max) ? max : 4);
}

/**
 * @internal {@link formatSpans} of a set already normalized, with `max` a
 * non-negative safe integer: for text the library writes about its own sets.
 */
export function spansText(spans: readonly LineRange[], max: number): string {
  return firstThenMore(
    spans,
    max,
    ({ start, end }) => (start === end ? `L${start}` : `L${start}-${end}`),
    (rest) => `+${rest} more ${plural(rest, 'span')}`,
  ).join(', ');
}

/**
 * @internal How every list the library writes for a reader is cut short (spans
 * here; a pointer's symbols and responses, a session block's files): the
 * first `max` of `items` as `show` writes them, then `more(rest)` when any are
 * left out.
 */
export function firstThenMore<T>(
  items: readonly T[],
  max: number,
  show: (item: T) => string,
  more: (rest: number) => string,
): string[] {
  const shown = items.slice(0, max).map(show);
  const rest = items.length - shown.length;
  if (rest > 0) shown.push(more(rest));
  return shown;
}

/** @internal `word` for a count of one, `word` + `s` for any other. */
export function plural(n: number, word: string): string {
  return n === 1 ? word : `${word}s`;
}
