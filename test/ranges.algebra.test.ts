import { describe, expect, it } from 'vitest';
import {
  coalesceRanges,
  countLines,
  dedupeRange,
  formatSpans,
  intersectRange,
  intersectRanges,
  isLineRange,
  type LineRange,
  mergeRanges,
  rangesCover,
  subtractRange,
  subtractRanges,
} from '../src/index.js';
import { plain, span as r } from './_build.js';

describe('isLineRange', () => {
  it('accepts 1-based inclusive integer spans', () => {
    expect(isLineRange(r(1, 1))).toBe(true);
    expect(isLineRange(r(3, 7))).toBe(true);
    expect(isLineRange(r(2 ** 53 - 2, 2 ** 53 - 1))).toBe(true);
  });

  it.each([
    ['NaN start', { start: Number.NaN, end: 3 }],
    ['Infinity end', { start: 1, end: Number.POSITIVE_INFINITY }],
    ['-Infinity start', { start: Number.NEGATIVE_INFINITY, end: 3 }],
    ['fractional start', { start: 1.5, end: 3 }],
    ['start after end', { start: 7, end: 3 }],
    ['line 0', { start: 0, end: 3 }],
    ['negative zero', { start: -0, end: 3 }],
    ['2^53', { start: 1, end: 2 ** 53 }],
    ['numeric strings', { start: '1', end: '3' }],
    ['null', null],
    ['a number', 5],
    ['a tuple', [1, 3]],
  ])('rejects %s', (_name, value) => {
    expect(isLineRange(value)).toBe(false);
  });

  it('returns false rather than throwing on a getter that throws', () => {
    const hostile = {
      get start(): number {
        throw new Error('boom');
      },
      end: 3,
    };
    expect(isLineRange(hostile)).toBe(false);
  });
});

describe('mergeRanges', () => {
  it('joins adjacent spans: 5-9 and 10-12 are one block', () => {
    expect(plain(mergeRanges([r(5, 9), r(10, 12)]))).toEqual([r(5, 12)]);
  });

  it('keeps a one-line gap as two spans', () => {
    expect(plain(mergeRanges([r(5, 9), r(11, 12)]))).toEqual([r(5, 9), r(11, 12)]);
  });

  it('sorts and merges overlapping spans given in any order', () => {
    expect(plain(mergeRanges([r(30, 40), r(1, 4), r(35, 50), r(3, 8)]))).toEqual([
      r(1, 8),
      r(30, 50),
    ]);
  });

  it('drops NaN, ±Infinity, 1.5, start > end and start < 1 instead of flooring or clamping', () => {
    const junk = [
      r(Number.NaN, 4),
      r(1, Number.POSITIVE_INFINITY),
      r(Number.NEGATIVE_INFINITY, 2),
      r(1.5, 3),
      r(9, 3),
      r(0, 2),
      r(-4, 2),
    ];
    expect(mergeRanges(junk)).toEqual([]);
    expect(plain(mergeRanges([...junk, r(20, 22)]))).toEqual([r(20, 22)]);
  });

  it('never mutates its input and returns fresh objects', () => {
    const input = [r(5, 9), r(20, 30)];
    const snapshot = structuredClone(input);
    const out = mergeRanges(input);
    expect(input).toEqual(snapshot);
    expect(out).not.toBe(input);
    expect(out[0]).not.toBe(input[0]);
    expect(out[0]).toEqual(input[0]);
  });

  it('gives [] for anything that is not an array', () => {
    for (const junk of [null, undefined, 42, 'L1-3', { start: 1, end: 2 }]) {
      expect(mergeRanges(junk as never)).toEqual([]);
    }
  });

  it('merges large unsorted inputs the same way as small ones (radix path)', () => {
    const many: LineRange[] = [];
    for (let i = 5000; i >= 1; i--) many.push(r(i * 10, i * 10 + 4));
    many.push(r(3, 49_999));
    expect(plain(mergeRanges(many))).toEqual([r(3, 50_004)]);
  });

  it('merges a mid-sized unsorted input the same way (natively sorted)', () => {
    const many: LineRange[] = [];
    for (let i = 1500; i >= 1; i--) many.push(r(i * 4, i * 4 + 1));
    const out = mergeRanges(many);
    expect(out).toHaveLength(1500);
    expect(plain([out[0]!, out[1499]!])).toEqual([r(4, 5), r(6000, 6001)]);
  });

  it('handles line numbers beyond 2^32 (native sort path)', () => {
    const big = 2 ** 40;
    const many: LineRange[] = [];
    for (let i = 3000; i >= 1; i--) many.push(r(big + i * 3, big + i * 3 + 1));
    const out = mergeRanges(many);
    expect(out).toHaveLength(3000);
    expect(out[0]).toEqual(r(big + 3, big + 4));
  });
});

describe('coalesceRanges', () => {
  it('keeps everything when the merged set fits', () => {
    expect(coalesceRanges([r(1, 5), r(6, 9)])).toEqual({ ranges: [r(1, 9)], truncated: false });
  });

  it('keeps the largest spans, re-sorted by line, and says it cut', () => {
    const out = coalesceRanges([r(1, 2), r(10, 30), r(40, 45), r(50, 50)], 2);
    expect(plain(out.ranges)).toEqual([r(10, 30), r(40, 45)]);
    expect(out.truncated).toBe(true);
  });

  it('breaks ties by keeping the earlier start', () => {
    const out = coalesceRanges([r(30, 34), r(10, 14), r(20, 24)], 2);
    expect(plain(out.ranges)).toEqual([r(10, 14), r(20, 24)]);
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '3'])(
    'keeps nothing for max = %s',
    (max) => {
      const out = coalesceRanges([r(1, 2)], max as number);
      expect(out).toEqual({ ranges: [], truncated: true });
    },
  );

  it('max = 0 on an empty set is not a truncation', () => {
    expect(coalesceRanges([], 0)).toEqual({ ranges: [], truncated: false });
  });

  it('a negative max keeps nothing, and an empty set is never truncated', () => {
    expect(coalesceRanges([], -1)).toEqual({ ranges: [], truncated: false });
    expect(coalesceRanges([r(1, 2)], -1)).toEqual({ ranges: [], truncated: true });
    expect(coalesceRanges([r(1, 2)], 0)).toEqual({ ranges: [], truncated: true });
  });

  it('keeps the largest, re-sorted by line, after merging an unsorted input', () => {
    const got = coalesceRanges([r(5, 6), r(1, 2), r(2, 3), r(100, 500)], 2);
    expect({ ...got, ranges: plain(got.ranges) }).toEqual({
      ranges: [r(1, 3), r(100, 500)],
      truncated: true,
    });
    const later = coalesceRanges([r(1, 3), r(10, 11), r(20, 40), r(50, 53)], 2);
    expect(plain(later.ranges)).toEqual([r(20, 40), r(50, 53)]);
    const first = coalesceRanges([r(1, 3), r(10, 11), r(20, 40)], 2);
    expect(plain(first.ranges)).toEqual([r(1, 3), r(20, 40)]);
  });

  it('on equal sizes keeps the earlier spans', () => {
    const got = coalesceRanges([r(30, 31), r(1, 2), r(20, 21), r(10, 11), r(40, 45)], 3);
    expect(plain(got.ranges)).toEqual([r(1, 2), r(10, 11), r(40, 45)]);
  });
});

describe('intersect and subtract', () => {
  it('a wider window (80-200 against served 100-140) leaves 80-99 and 141-200', () => {
    expect(plain(subtractRange(r(80, 200), [r(100, 140)]))).toEqual([r(80, 99), r(141, 200)]);
    expect(plain(intersectRange(r(80, 200), [r(100, 140)]))).toEqual([r(100, 140)]);
  });

  it('an invalid range gives empty results', () => {
    expect(intersectRange(r(5, 1), [r(1, 10)])).toEqual([]);
    expect(subtractRange(r(Number.NaN, 3), [])).toEqual([]);
  });

  it('an invalid member of the set never hides a line', () => {
    expect(plain(subtractRange(r(1, 10), [r(0, 20), r(2, 1.5)]))).toEqual([r(1, 10)]);
  });

  it('works on two sets', () => {
    const a = [r(1, 10), r(20, 30)];
    const b = [r(5, 25)];
    expect(plain(intersectRanges(a, b))).toEqual([r(5, 10), r(20, 25)]);
    expect(plain(subtractRanges(a, b))).toEqual([r(1, 4), r(26, 30)]);
    expect(plain(subtractRanges(b, a))).toEqual([r(11, 19)]);
  });

  it('subtracting a set that spans several pieces of one range', () => {
    expect(plain(subtractRanges([r(1, 30)], [r(5, 9), r(20, 40)]))).toEqual([r(1, 4), r(10, 19)]);
  });
});

describe('dedupeRange', () => {
  it('a wider window emits only the delta and points at the held run', () => {
    expect(dedupeRange(r(80, 200), [r(100, 140)])).toEqual({
      emit: [r(80, 99), r(141, 200)],
      covered: [r(100, 140)],
    });
  });

  it('a 7-line overlap withholds nothing', () => {
    expect(dedupeRange(r(1, 20), [r(14, 20)])).toEqual({ emit: [r(1, 20)], covered: [] });
  });

  it('an 8-line overlap is withheld', () => {
    expect(dedupeRange(r(1, 20), [r(13, 20)])).toEqual({ emit: [r(1, 12)], covered: [r(13, 20)] });
  });

  it('minCovered below 1 acts as 1', () => {
    expect(dedupeRange(r(1, 3), [r(2, 2)], 0).covered).toEqual([r(2, 2)]);
    expect(dedupeRange(r(1, 3), [r(2, 2)], -5).covered).toEqual([r(2, 2)]);
  });

  it('a NaN minCovered covers nothing', () => {
    expect(dedupeRange(r(1, 30), [r(1, 30)], Number.NaN)).toEqual({
      emit: [r(1, 30)],
      covered: [],
    });
  });
});

describe('rangesCover and countLines', () => {
  it('answers membership on a normalized set and on an unsorted one', () => {
    const held = mergeRanges([r(100, 140), r(1, 3)]);
    expect(rangesCover(held, 120)).toBe(true);
    expect(rangesCover(held, 141)).toBe(false);
    expect(rangesCover(held, 1)).toBe(true);
    expect(rangesCover([r(100, 140), r(1, 3), r(9, 2)], 3)).toBe(true);
    expect(rangesCover([r(100, 140), r(1, 3), r(9, 2)], 5)).toBe(false);
  });

  it('answers for a copy of a result the caller has since extended', () => {
    const held = [...mergeRanges([r(10, 20)]), r(1, 2)];
    expect(rangesCover(held, 1)).toBe(true);
    expect(rangesCover(held, 3)).toBe(false);
  });

  it('an edited copy of a result answers what its valid members say', () => {
    const held = [...mergeRanges([r(1, 5), r(10, 20)])];
    held[0] = { start: -5, end: 20 };
    expect(rangesCover(held, 2)).toBe(false);
    expect(rangesCover(held, 12)).toBe(true);
  });

  it('rejects lines that are not positive safe integers', () => {
    const set = mergeRanges([r(1, 5)]);
    for (const line of [0, -1, 1.5, Number.NaN, 2 ** 53]) {
      expect(rangesCover(set, line)).toBe(false);
      expect(rangesCover([r(1, 5)], line)).toBe(false);
    }
  });

  it('answers at both ends of every span of a result, and in the gaps', () => {
    const spans = Array.from({ length: 64 }, (_, i) => r(10 * i + 1, 10 * i + 5));
    const set = mergeRanges(spans);
    for (const { start, end } of spans) {
      expect([start - 1, start, end, end + 1].map((l) => rangesCover(set, l))).toEqual([
        false,
        true,
        true,
        false,
      ]);
    }
  });

  it('counts distinct lines', () => {
    expect(countLines([r(1, 10), r(5, 12)])).toBe(12);
    expect(countLines([r(3, 1), r(20, 20)])).toBe(1);
  });
});

describe('formatSpans', () => {
  it('writes single lines and spans', () => {
    expect(formatSpans([r(20, 40), r(12, 12)])).toBe('L12, L20-40');
  });

  it('summarizes the rest in singular and plural', () => {
    const lines = (...ns: number[]) => ns.map((n) => r(n, n));
    expect(formatSpans(lines(1, 3, 5, 7, 9))).toBe('L1, L3, L5, L7, +1 more span');
    expect(formatSpans(lines(1, 3, 5, 7, 9, 11))).toBe('L1, L3, L5, L7, +2 more spans');
    expect(formatSpans(lines(1, 3, 5), 1)).toBe('L1, +2 more spans');
  });

  it('is empty for an empty set', () => {
    expect(formatSpans([])).toBe('');
  });

  it('with max 0 summarizes everything; a negative max acts as 4', () => {
    const set = [r(1, 1), r(3, 4), r(6, 6)];
    expect(formatSpans(set, 0)).toBe('+3 more spans');
    expect(formatSpans(set, -1)).toBe('L1, L3-4, L6');
    expect(formatSpans([r(1, 1), r(3, 3), r(5, 5), r(7, 7), r(9, 9)], -2)).toBe(
      'L1, L3, L5, L7, +1 more span',
    );
  });
});
