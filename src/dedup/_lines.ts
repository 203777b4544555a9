/**
 * Internal: line offsets of one file's content, so the chars of any span cost
 * O(1), and the span operations the planner needs on top of them (clip to the
 * file, cut a prefix to an allowance). Not part of the public surface.
 *
 * Lines are POSIX lines: the content cut at each `\n`, where a final `\n` ends
 * the last line instead of starting an empty one (`'a\nb\n'` has 2 lines, `''`
 * has 0). Line `k` runs from its first char through its `\n` (a last line
 * without one ends at the content's end), so the chars of all lines add up to
 * `content.length`.
 */
import { EMPTY, type Spans, SpanWriter } from '../ranges/_spans.js';

/**
 * Prefix sums of line lengths: line `k` (1-based) is `offsets[k - 1] .. offsets[k]`,
 * for `k <= lineCount`. When the index was built only up to a line, `lineCount`
 * is that line and `complete` is false (the file goes on).
 */
export interface LineIndex {
  readonly offsets: Uint32Array;
  readonly lineCount: number;
  readonly complete: boolean;
}

/**
 * Indexes the lines of `content`, only the first `upTo` of them when the file
 * has more: lines past the last one a plan can touch are never scanned. One
 * `indexOf` pass into a typed array (no per-line strings: `split` measured
 * slower once its garbage is counted).
 */
export function indexLines(content: string, upTo = Number.POSITIVE_INFINITY): LineIndex {
  const limit = Number.isSafeInteger(upTo) && upTo >= 1 ? upTo : Number.POSITIVE_INFINITY;
  // Room for line starts up to `limit` and one end: no growth when a limit is given.
  let cap = Math.max(16, Math.min((content.length >>> 5) + 2, limit + 2));
  // 32 bits hold any offset: no engine allows a string of 2^32 chars.
  let offsets = new Uint32Array(cap);
  let n = 1;
  let i = content.indexOf('\n');
  for (; i !== -1 && n <= limit; i = content.indexOf('\n', i + 1)) {
    if (n + 1 >= cap) {
      cap *= 2;
      const grown = new Uint32Array(cap);
      grown.set(offsets);
      offsets = grown;
    }
    offsets[n++] = i + 1;
  }
  // Stopped with a line break still ahead: the file goes on past `limit`.
  if (i !== -1) return { offsets, lineCount: limit, complete: false };
  // A final '\n' ended the last line: no empty line starts after it.
  if (offsets[n - 1] === content.length) return { offsets, lineCount: n - 1, complete: true };
  // The file's last line has no terminator.
  offsets[n] = content.length;
  return { offsets, lineCount: n, complete: true };
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

/** The part of a normalized set that lies within the file's lines (as far as `lineCount`). */
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

/** `a ∪ b` on packed sets: a linear merge. */
export function unionSpans(a: Spans, b: Spans): Spans {
  if (a.n === 0) return b;
  if (b.n === 0) return a;
  const out = new SpanWriter(a.n + b.n);
  let i = 0;
  let j = 0;
  while (i < a.n || j < b.n) {
    if (j >= b.n || (i < a.n && a.s[i]! <= b.s[j]!)) {
      out.push(a.s[i]!, a.e[i]!);
      i++;
    } else {
      out.push(b.s[j]!, b.e[j]!);
      j++;
    }
  }
  return out.done();
}
