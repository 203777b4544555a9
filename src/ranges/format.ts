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
  const shown = Math.min(spans.length, max);
  const parts = spans
    .slice(0, shown)
    .map(({ start, end }) => (start === end ? `L${start}` : `L${start}-${end}`));
  const rest = spans.length - shown;
  if (rest > 0) parts.push(`+${rest} more ${rest === 1 ? 'span' : 'spans'}`);
  return parts.join(', ');
}
