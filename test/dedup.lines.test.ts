/**
 * The planner's line arithmetic, on contents small enough to count by hand:
 * where each line starts, how far an index reaches when it is given a limit,
 * clipping to the file, cutting a set to an allowance, and telling trivial
 * lines from code.
 * A chars figure that is off by one line here is a budget overrun there.
 */
import { describe, expect, it } from 'vitest';
import type { LineRange } from '../src/index.js';
import { readRanges } from '../src/ranges/read.js';
import type { Spans } from '../src/ranges/spans.js';
import {
  allTrivial,
  charsOf,
  charsOfLines,
  clipToLines,
  indexLines,
  takePrefix,
} from '../src/text/lines.js';

/** A normalized set, as the planner hands its helpers (read as the edge reads one). */
const set = (...pairs: [number, number][]): Spans =>
  readRanges(pairs.map(([start, end]) => ({ start, end })));
const pairs = (spans: readonly LineRange[]): [number, number][] =>
  spans.map((r) => [r.start, r.end]);

// Lines (each with its '\n' but the last): 'aa\n' 3, 'bbb\n' 4, 'cc\n' 3, 'd' 1.
const FOUR = 'aa\nbbb\ncc\nd';

describe('indexLines', () => {
  it('gives each line start and the end of the content', () => {
    const index = indexLines(FOUR);
    expect([...index.offsets.slice(0, 5)]).toEqual([0, 3, 7, 10, 11]);
    expect(index.lineCount).toBe(4);
    expect(index.complete).toBe(true);
  });

  it('stops at the limit when the file goes on, and says so', () => {
    const index = indexLines(FOUR, 2);
    expect(index.lineCount).toBe(2);
    expect(index.complete).toBe(false);
    expect([...index.offsets.slice(0, 3)]).toEqual([0, 3, 7]);
    expect(charsOfLines(index, 1, 2)).toBe(7);
  });

  it('indexes the whole file when the limit is its last line or past it', () => {
    for (const upTo of [3, 4, 5, 1000]) {
      const index = indexLines(FOUR, upTo);
      expect(index.complete).toBe(true);
      expect(index.lineCount).toBe(4);
      expect(charsOfLines(index, 1, 4)).toBe(FOUR.length);
    }
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])(
    'treats limit %s as no limit',
    (upTo) => {
      const index = indexLines(FOUR, upTo);
      expect(index.lineCount).toBe(4);
      expect(index.complete).toBe(true);
    },
  );

  it('grows past its first guess on a file of short lines', () => {
    // 200 empty lines, each ended by its '\n'.
    const content = '\n'.repeat(200);
    const index = indexLines(content);
    expect(index.lineCount).toBe(200);
    expect([...index.offsets.slice(0, 201)]).toEqual(Array.from({ length: 201 }, (_, i) => i));
    expect(charsOfLines(index, 1, 200)).toBe(200);
    expect(charsOfLines(index, 200, 200)).toBe(1);
  });

  it('reaches a limit deep into a file of short lines', () => {
    const content = 'x\n'.repeat(500);
    const index = indexLines(content, 300);
    expect(index.lineCount).toBe(300);
    expect(index.complete).toBe(false);
    expect(charsOfLines(index, 1, 300)).toBe(600);
    expect(charsOfLines(index, 300, 300)).toBe(2);
  });

  it('counts an empty content as no line at all', () => {
    const index = indexLines('');
    expect(index.lineCount).toBe(0);
    expect(index.complete).toBe(true);
  });

  it('ends the last line at a final newline instead of starting an empty one', () => {
    const index = indexLines('a\nb\n');
    expect(index.lineCount).toBe(2);
    expect(charsOfLines(index, 2, 2)).toBe(2);
    expect(indexLines('\n').lineCount).toBe(1);
    expect(indexLines('a\nb').lineCount).toBe(2);
  });

  it('finds the end of a file whose final newline sits right after the limit line', () => {
    // The scan reaches line 2's terminator, which ends the file: line 3 does not exist.
    const index = indexLines('a\nb\n', 1);
    expect(index.complete).toBe(false);
    expect(index.lineCount).toBe(1);
    const whole = indexLines('a\nb\n', 2);
    expect(whole.complete).toBe(true);
    expect(whole.lineCount).toBe(2);
  });
});

describe('charsOf and clipToLines', () => {
  it('adds the chars of each span', () => {
    const index = indexLines(FOUR);
    expect(charsOf(index, set([1, 1], [3, 4]))).toBe(3 + 3 + 1);
    expect(charsOf(index, set())).toBe(0);
  });

  it('cuts spans at the last line and drops those past it', () => {
    const spans = set([1, 3], [5, 7], [9, 12]);
    expect(pairs(clipToLines(spans, 6))).toEqual([
      [1, 3],
      [5, 6],
    ]);
    expect(pairs(clipToLines(spans, 4))).toEqual([[1, 3]]);
    expect(pairs(clipToLines(spans, 5))).toEqual([
      [1, 3],
      [5, 5],
    ]);
    expect(pairs(clipToLines(spans, 11))).toEqual([
      [1, 3],
      [5, 7],
      [9, 11],
    ]);
  });

  it('hands back the same set when it fits, or is empty', () => {
    const spans = set([1, 3], [5, 7]);
    expect(clipToLines(spans, 7)).toBe(spans);
    expect(clipToLines(spans, 100)).toBe(spans);
    const none = set();
    expect(clipToLines(none, 0)).toBe(none);
    expect(clipToLines(spans, 0)).toEqual([]);
  });
});

describe('takePrefix', () => {
  const index = indexLines(FOUR);
  const spans = set([1, 1], [3, 4]); // 3 chars, then 3 + 1

  it.each<[number, [number, number][], number]>([
    [0, [], 0],
    [2, [], 0],
    [3, [[1, 1]], 3],
    [5, [[1, 1]], 3],
    [
      6,
      [
        [1, 1],
        [3, 3],
      ],
      6,
    ],
    [
      7,
      [
        [1, 1],
        [3, 4],
      ],
      7,
    ],
    [
      100,
      [
        [1, 1],
        [3, 4],
      ],
      7,
    ],
  ])('with allowance %s sends %j (%s chars)', (allowance, expected, chars) => {
    const out = takePrefix(index, spans, allowance);
    expect(pairs(out.spans)).toEqual(expected);
    expect(out.chars).toBe(chars);
  });

  it('keeps taking whole spans after one that fits exactly', () => {
    const three = set([1, 1], [2, 2], [4, 4]); // 3, 4, 1 chars
    expect(pairs(takePrefix(index, three, 7).spans)).toEqual([[1, 2]]);
    const out = takePrefix(index, three, 8);
    expect(pairs(out.spans)).toEqual([
      [1, 2],
      [4, 4],
    ]);
    expect(out.chars).toBe(8);
  });

  it('cuts inside a span at the last whole line that fits', () => {
    const long = set([1, 4]);
    expect(pairs(takePrefix(index, long, 9).spans)).toEqual([[1, 2]]);
    expect(takePrefix(index, long, 9).chars).toBe(7);
    expect(pairs(takePrefix(index, long, 10).spans)).toEqual([[1, 3]]);
    expect(pairs(takePrefix(index, long, 11).spans)).toEqual([[1, 4]]);
  });

  it('counts what earlier spans used when it cuts a later one', () => {
    const two = set([1, 1], [2, 4]); // 3, then 4 + 3 + 1
    const out = takePrefix(index, two, 10);
    expect(pairs(out.spans)).toEqual([[1, 3]]);
    expect(out.chars).toBe(10);
    const tight = takePrefix(index, two, 9);
    expect(pairs(tight.spans)).toEqual([[1, 2]]);
    expect(tight.chars).toBe(7);
  });
});

describe('allTrivial', () => {
  // Lines: '}', '  );', '', '\t],', 'x = 1;', ';,'.
  const index = indexLines('}\n  );\n\n\t],\nx = 1;\n;,\n');

  it('holds for lines of nothing but whitespace and )]};,', () => {
    expect(allTrivial(index, set([1, 4], [6, 6]))).toBe(true);
    expect(allTrivial(index, set())).toBe(true);
  });

  it('fails on any line that carries anything else', () => {
    expect(allTrivial(index, set([5, 5]))).toBe(false);
    expect(allTrivial(index, set([1, 2], [4, 6]))).toBe(false);
  });
});
