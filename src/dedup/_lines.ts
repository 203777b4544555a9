/**
 * Internal: line offsets of one file's content, so the chars of any span cost
 * O(1), and the span operations the planner needs on top of them (clip to the
 * file, cut a prefix to an allowance). Not part of the public surface.
 *
 * Lines are `content.split('\n')`: line `k` runs from its first char through its
 * `\n` (the last line has none), so the chars of all lines add up to
 * `content.length`.
 */
import { EMPTY, type Spans, SpanWriter } from '../ranges/_spans.js';

/** Prefix sums of line lengths: line `k` (1-based) is `offsets[k - 1] .. offsets[k]`. */
export interface LineIndex {
  readonly offsets: Float64Array;
  readonly lineCount: number;
}

/** Scans `content` once for line breaks. */
export function indexLines(content: string): LineIndex {
  let count = 1;
  for (let i = content.indexOf('\n'); i !== -1; i = content.indexOf('\n', i + 1)) count++;
  const offsets = new Float64Array(count + 1);
  let line = 1;
  for (let i = content.indexOf('\n'); i !== -1; i = content.indexOf('\n', i + 1)) {
    offsets[line++] = i + 1;
  }
  offsets[count] = content.length;
  return { offsets, lineCount: count };
}

/** Chars of lines `start..end` (both within the file). */
export function charsOfLines(index: LineIndex, start: number, end: number): number {
  return index.offsets[end]! - index.offsets[start - 1]!;
}

/** Chars of a set already clipped to the file. */
export function charsOf(index: LineIndex, spans: Spans): number {
  let sum = 0;
  for (let i = 0; i < spans.n; i++) sum += charsOfLines(index, spans.s[i]!, spans.e[i]!);
  return sum;
}

/** The part of a normalized set that lies within the file's lines. */
export function clipToFile(spans: Spans, lineCount: number): Spans {
  if (spans.n === 0 || spans.e[spans.n - 1]! <= lineCount) return spans;
  const out = new SpanWriter(spans.n);
  for (let i = 0; i < spans.n && spans.s[i]! <= lineCount; i++) {
    out.push(spans.s[i]!, Math.min(spans.e[i]!, lineCount));
  }
  return out.done();
}

/** A prefix of a set, and its chars. */
export interface Prefix {
  readonly spans: Spans;
  readonly chars: number;
}

/**
 * The longest prefix of `spans` (in line order, cut at whole lines from the end)
 * whose chars are at most `allowance`.
 */
export function takePrefix(index: LineIndex, spans: Spans, allowance: number): Prefix {
  if (!(allowance >= 0)) return { spans: EMPTY, chars: 0 };
  const out = new SpanWriter(spans.n);
  const { offsets } = index;
  let used = 0;
  for (let i = 0; i < spans.n; i++) {
    const s = spans.s[i]!;
    const e = spans.e[i]!;
    const whole = offsets[e]! - offsets[s - 1]!;
    if (used + whole <= allowance) {
      out.push(s, e);
      used += whole;
      continue;
    }
    // The last line k in s-1..e with offsets[k] - offsets[s-1] <= room.
    const limit = offsets[s - 1]! + (allowance - used);
    let lo = s - 1;
    let hi = e;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (offsets[mid]! <= limit) lo = mid;
      else hi = mid - 1;
    }
    if (lo >= s) {
      out.push(s, lo);
      used += offsets[lo]! - offsets[s - 1]!;
    }
    break;
  }
  return { spans: out.done(), chars: used };
}

/** Lines in a set. */
export function lineCountOf(spans: Spans): number {
  let n = 0;
  for (let i = 0; i < spans.n; i++) n += spans.e[i]! - spans.s[i]! + 1;
  return n;
}
