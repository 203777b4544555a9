/**
 * The line model: line offsets of one file's content, so the chars of any span
 * cost O(1), and the span operations on top of them (clip to the file, cut a
 * set to an allowance, tell trivial lines from code). Not part of the public
 * surface.
 *
 * Lines are POSIX lines: the content cut at each `\n`, where a final `\n` ends
 * the last line instead of starting an empty one (`'a\nb\n'` has 2 lines, `''`
 * has 0). Line `k` runs from its first char through its `\n` (a last line
 * without one ends at the content's end), so the chars of all lines add up to
 * `content.length`.
 */
import type { LineRange } from '../ranges/range.js';
import type { Spans } from '../ranges/spans.js';

/**
 * Prefix sums of line lengths: line `k` (1-based) is `offsets[k - 1] .. offsets[k]`,
 * for `k <= lineCount`. When the index was built only up to a line, `lineCount`
 * is that line and `complete` is false (the file goes on).
 */
export interface LineIndex {
  readonly content: string;
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
  if (i !== -1) return { content, offsets, lineCount: limit, complete: false };
  // A final '\n' ended the last line: no empty line starts after it.
  if (offsets[n - 1] === content.length) {
    return { content, offsets, lineCount: n - 1, complete: true };
  }
  // The file's last line has no terminator.
  offsets[n] = content.length;
  return { content, offsets, lineCount: n, complete: true };
}

/** The text of line `n` (within the indexed lines), without its `'\n'` (a `'\r'` stays). */
export function lineText(index: LineIndex, n: number): string {
  const { content, offsets } = index;
  const end = offsets[n]!;
  return content.slice(offsets[n - 1]!, content.charCodeAt(end - 1) === 10 ? end - 1 : end);
}

/**
 * The text of every line of `content`, in order (POSIX lines: `'a\nb\n'` and
 * `'a\nb'` give `['a', 'b']`, `''` gives `[]`).
 */
export function splitLines(content: string): string[] {
  const index = indexLines(content);
  const out: string[] = [];
  for (let n = 1; n <= index.lineCount; n++) out.push(lineText(index, n));
  return out;
}

/** Chars of lines `start..end` (both within the file). */
export function charsOfLines(index: LineIndex, start: number, end: number): number {
  return index.offsets[end]! - index.offsets[start - 1]!;
}

/** Chars of a set already clipped to the file. */
export function charsOf(index: LineIndex, spans: readonly LineRange[]): number {
  let sum = 0;
  for (const r of spans) sum += charsOfLines(index, r.start, r.end);
  return sum;
}

/** The part of a normalized set that lies within the file's lines (as far as `lineCount`). */
export function clipToLines(spans: Spans, lineCount: number): Spans {
  const last = spans[spans.length - 1];
  if (last === undefined || last.end <= lineCount) return spans;
  const out: LineRange[] = [];
  for (const r of spans) {
    if (r.start > lineCount) break;
    out.push(r.end <= lineCount ? r : { start: r.start, end: lineCount });
  }
  return out as readonly LineRange[] as Spans;
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
  const out: LineRange[] = [];
  const { offsets } = index;
  let used = 0;
  for (const r of spans) {
    const whole = offsets[r.end]! - offsets[r.start - 1]!;
    if (used + whole <= allowance) {
      out.push(r);
      used += whole;
      continue;
    }
    // The last line k in start-1..end with offsets[k] - offsets[start-1] <= room.
    const limit = offsets[r.start - 1]! + (allowance - used);
    let lo = r.start - 1;
    let hi = r.end;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (offsets[mid]! <= limit) lo = mid;
      else hi = mid - 1;
    }
    if (lo >= r.start) {
      out.push({ start: r.start, end: lo });
      used += offsets[lo]! - offsets[r.start - 1]!;
    }
    break;
  }
  return { spans: out as readonly LineRange[] as Spans, chars: used };
}

/** Whitespace and closing punctuation only: a line that carries no code. */
const TRIVIAL = /^[\s)\]};,]*$/;

/**
 * Whether every line of `spans` is trivial — empty, or only whitespace and
 * `)]};,`. Only such lines may be folded into a pointer unseen.
 */
export function allTrivial(index: LineIndex, spans: readonly LineRange[]): boolean {
  for (const r of spans) {
    const text = index.content.slice(index.offsets[r.start - 1]!, index.offsets[r.end]!);
    if (!TRIVIAL.test(text)) return false;
  }
  return true;
}
