/**
 * Internal: which records a bound keeps. Every bound on records keeps the most
 * recent ones and drops the oldest whole, so what is left is always a suffix
 * of what was served: a bound forgets (a re-send), it never leaves a hole that
 * makes an older record look newer than a forgotten one.
 */
import type { CallRecord } from './types.js';

/** Ranges a record holds, over all its files. */
export function rangesOf(record: CallRecord): number {
  let n = 0;
  for (const file of record.files) n += file.ranges.length;
  return n;
}

/**
 * The longest suffix of `calls` (oldest first) with at most `maxCalls` records
 * and at most `maxRanges` ranges over them. A record that alone holds more than
 * `maxRanges` is not kept, nor anything older than it.
 */
export function recentWithin(
  calls: readonly CallRecord[],
  maxCalls: number,
  maxRanges: number,
): readonly CallRecord[] {
  let from = calls.length;
  let ranges = 0;
  while (from > 0 && calls.length - from < maxCalls) {
    const n = rangesOf(calls[from - 1]!);
    if (ranges + n > maxRanges) break;
    ranges += n;
    from--;
  }
  return from === 0 ? calls : calls.slice(from);
}
