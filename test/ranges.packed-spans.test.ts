/**
 * The packed form src/dedup still computes on (src/ranges/_spans.ts), until
 * the planner moves to the public range functions; this file goes with it.
 * Expected values are written out by hand.
 */
import { describe, expect, it } from 'vitest';
import type { LineRange } from '../src/index.js';
import {
  EMPTY,
  firstEndingAtOrAfter,
  fromSpans,
  intersectSpans,
  longRuns,
  SpanWriter,
  spansOf,
  subtractSpans,
  toSpans,
} from '../src/ranges/_spans.js';

const r = (start: number, end: number): LineRange => ({ start, end });
/** The first `n` spans of a packed set, as ranges. */
const unpack = (spans: { s: ArrayLike<number>; e: ArrayLike<number>; n: number }) =>
  Array.from({ length: spans.n }, (_, i) => r(spans.s[i]!, spans.e[i]!));

describe('toSpans', () => {
  it('packs a normalized input member for member', () => {
    expect(unpack(toSpans([r(1, 2), r(4, 4), r(9, 20)]))).toEqual([r(1, 2), r(4, 4), r(9, 20)]);
  });

  it('merges what touches or overlaps, sorted or not', () => {
    expect(unpack(toSpans([r(1, 2), r(3, 4), r(4, 9), r(20, 21)]))).toEqual([r(1, 9), r(20, 21)]);
    expect(unpack(toSpans([r(20, 21), r(4, 9), r(1, 2), r(3, 4)]))).toEqual([r(1, 9), r(20, 21)]);
  });

  it('drops invalid and hostile members, and gives the shared empty set when none is left', () => {
    const hostile = {
      get start(): number {
        throw new Error('hostile');
      },
      end: 9,
    };
    expect(unpack(toSpans([hostile, 7, r(5, 3), r(10, 12)]))).toEqual([r(10, 12)]);
    expect(toSpans([r(5, 3), null])).toBe(EMPTY);
    expect(toSpans([])).toBe(EMPTY);
    expect(toSpans('x')).toBe(EMPTY);
  });

  it('packs a large unsorted input with the same answer as mergeRanges', () => {
    const many: LineRange[] = [];
    for (let i = 3000; i >= 1; i--) many.push(r(i * 10, i * 10 + 4));
    expect(unpack(toSpans(many)).slice(0, 2)).toEqual([r(10, 14), r(20, 24)]);
    expect(toSpans(many).n).toBe(3000);
  });

  it('fromSpans unpacks the first n', () => {
    expect(fromSpans(spansOf([1, 9], [3, 9], 1))).toEqual([r(1, 3)]);
  });
});

describe('firstEndingAtOrAfter', () => {
  const set = spansOf([1, 10, 20, 99], [5, 12, 30, 99], 3);
  it.each([
    [1, 0],
    [5, 0],
    [6, 1],
    [12, 1],
    [13, 2],
    [30, 2],
    [31, 3],
    [1000, 3],
  ])('line %i → index %i (entries past n ignored)', (line, index) => {
    expect(firstEndingAtOrAfter(set, line)).toBe(index);
  });
});

describe('the packed walks', () => {
  const some = spansOf([1, 10], [5, 12], 2);
  const none = spansOf([], [], 0);

  it('intersectSpans', () => {
    expect(unpack(intersectSpans(some, spansOf([3, 12], [10, 40], 2)))).toEqual([
      r(3, 5),
      r(10, 10),
      r(12, 12),
    ]);
    expect(unpack(intersectSpans(spansOf([11], [30], 1), some))).toEqual([r(11, 12)]);
    expect(intersectSpans(none, some)).toBe(EMPTY);
    expect(intersectSpans(some, none)).toBe(EMPTY);
  });

  it('subtractSpans', () => {
    expect(unpack(subtractSpans(spansOf([1], [20], 1), some))).toEqual([r(6, 9), r(13, 20)]);
    expect(unpack(subtractSpans(some, spansOf([1, 11], [2, 11], 2)))).toEqual([
      r(3, 5),
      r(10, 10),
      r(12, 12),
    ]);
    expect(unpack(subtractSpans(spansOf([20], [30], 1), some))).toEqual([r(20, 30)]);
    expect(subtractSpans(none, some)).toBe(EMPTY);
    expect(subtractSpans(some, none)).toBe(some);
  });

  it('longRuns keeps runs at least minCovered long, and only the first n', () => {
    const held = spansOf([1, 10, 50], [5, 20, 90], 2);
    expect(unpack(longRuns(held, 5))).toEqual([r(1, 5), r(10, 20)]);
    expect(unpack(longRuns(held, 6))).toEqual([r(10, 20)]);
    expect(unpack(longRuns(held, 12))).toEqual([]);
  });
});

describe('SpanWriter', () => {
  it('joins what touches, never shrinks a span it joins into, skips empty pieces', () => {
    const w = new SpanWriter(2);
    w.push(1, 10);
    w.push(3, 5);
    w.push(11, 12);
    w.push(20, 19);
    w.push(14, 15);
    expect(unpack(w.done())).toEqual([r(1, 12), r(14, 15)]);
  });
});
