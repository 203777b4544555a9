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
 * Where the longest suffix of `calls` (oldest first) with at most `maxCalls`
 * records and at most `maxRanges` ranges over them starts, counting `extra`
 * (a record about to be appended) as already in it. A record that alone holds
 * more than what is left of `maxRanges` is not kept, nor anything older.
 */
function suffixStart(
  calls: readonly CallRecord[],
  maxCalls: number,
  maxRanges: number,
  extra: number,
): number {
  let from = calls.length;
  let ranges = extra;
  while (from > 0 && calls.length - from < maxCalls) {
    ranges += rangesOf(calls[from - 1]!);
    if (ranges > maxRanges) break;
    from--;
  }
  return from;
}

/** The most recent records of `calls` within both bounds (the same array when all fit). */
export function recentWithin(
  calls: readonly CallRecord[],
  maxCalls: number,
  maxRanges: number,
): readonly CallRecord[] {
  const from = suffixStart(calls, maxCalls, maxRanges, 0);
  return from === 0 ? calls : calls.slice(from);
}

/**
 * `calls` with `record` appended, cut to the most recent records within both
 * bounds, as a fresh array. When `record` alone breaks a bound nothing is kept.
 */
export function appendWithin(
  calls: readonly CallRecord[],
  record: CallRecord,
  maxCalls: number,
  maxRanges: number,
): CallRecord[] {
  const own = rangesOf(record);
  if (maxCalls === 0 || own > maxRanges) return [];
  const out = calls.slice(suffixStart(calls, maxCalls - 1, maxRanges, own));
  out.push(record);
  return out;
}
