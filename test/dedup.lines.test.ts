/**
 * The planner's line arithmetic, on contents small enough to count by hand:
 * where each line starts, how far an index reaches when it is given a limit,
 * clipping to the file, cutting a set to an allowance, and joining two sets.
 * A chars figure that is off by one line here is a budget overrun there.
 */
import { describe, expect, it } from 'vitest';
import {
  charsOf,
  charsOfLines,
  clipToFile,
  indexLines,
  takePrefix,
  unionSpans,
} from '../src/dedup/_lines.js';
import { fromSpans, type Spans, toSpans } from '../src/ranges/_spans.js';

const set = (...pairs: [number, number][]): Spans =>
  toSpans(pairs.map(([start, end]) => ({ start, end })));
const pairs = (spans: Spans): [number, number][] => fromSpans(spans).map((r) => [r.start, r.end]);

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
    const content = '\n'.repeat(200);
    const index = indexLines(content);
    expect(index.lineCount).toBe(201);
    expect([...index.offsets.slice(0, 202)]).toEqual(
      Array.from({ length: 202 }, (_, i) => Math.min(i, 200)),
    );
    expect(charsOfLines(index, 1, 201)).toBe(200);
    expect(charsOfLines(index, 201, 201)).toBe(0);
  });

  it('reaches a limit deep into a file of short lines', () => {
    const content = 'x\n'.repeat(500);
    const index = indexLines(content, 300);
    expect(index.lineCount).toBe(300);
    expect(index.complete).toBe(false);
    expect(charsOfLines(index, 1, 300)).toBe(600);
    expect(charsOfLines(index, 300, 300)).toBe(2);
  });

  it('counts an empty content as one empty line', () => {
    const index = indexLines('');
    expect(index.lineCount).toBe(1);
    expect(charsOfLines(index, 1, 1)).toBe(0);
  });
});

describe('charsOf and clipToFile', () => {
  it('adds the chars of each span', () => {
    const index = indexLines(FOUR);
    expect(charsOf(index, set([1, 1], [3, 4]))).toBe(3 + 3 + 1);
    expect(charsOf(index, set())).toBe(0);
  });

  it('cuts spans at the last line and drops those past it', () => {
    const spans = set([1, 3], [5, 7], [9, 12]);
    expect(pairs(clipToFile(spans, 6))).toEqual([
      [1, 3],
      [5, 6],
    ]);
    expect(pairs(clipToFile(spans, 4))).toEqual([[1, 3]]);
    expect(pairs(clipToFile(spans, 5))).toEqual([
      [1, 3],
      [5, 5],
    ]);
    expect(pairs(clipToFile(spans, 11))).toEqual([
      [1, 3],
      [5, 7],
      [9, 11],
    ]);
  });

  it('hands back the same set when it fits, or is empty', () => {
    const spans = set([1, 3], [5, 7]);
    expect(clipToFile(spans, 7)).toBe(spans);
    expect(clipToFile(spans, 100)).toBe(spans);
    const none = set();
    expect(clipToFile(none, 0)).toBe(none);
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

describe('unionSpans', () => {
  it('joins two sets in line order, merging what overlaps or touches', () => {
    const a = set([1, 3], [10, 12], [30, 31]);
    const b = set([2, 5], [13, 20], [25, 26]);
    expect(pairs(unionSpans(a, b))).toEqual([
      [1, 5],
      [10, 20],
      [25, 26],
      [30, 31],
    ]);
    expect(pairs(unionSpans(b, a))).toEqual(pairs(unionSpans(a, b)));
  });

  it('takes the rest of the longer set once the shorter one runs out', () => {
    expect(pairs(unionSpans(set([1, 1]), set([5, 5], [9, 9], [12, 12])))).toEqual([
      [1, 1],
      [5, 5],
      [9, 9],
      [12, 12],
    ]);
    expect(pairs(unionSpans(set([5, 5], [9, 9], [12, 12]), set([20, 20])))).toEqual([
      [5, 5],
      [9, 9],
      [12, 12],
      [20, 20],
    ]);
  });

  it('keeps equal starts once', () => {
    expect(pairs(unionSpans(set([4, 6]), set([4, 9])))).toEqual([[4, 9]]);
  });
});
