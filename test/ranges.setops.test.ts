/**
 * intersectRanges and subtractRanges: one linear walk over normalized sets,
 * and the same answer when a member breaks the order. The walk reads every
 * member once and hands over to a merge-then-walk the moment a member is
 * invalid, out of order, overlapping or touching; where it hands over must
 * never change the answer. Expected sets are written out by hand or come from
 * the line-set model.
 */
import { describe, expect, it } from 'vitest';
import {
  dedupeRange,
  intersectRange,
  intersectRanges,
  type LineRange,
  subtractRange,
  subtractRanges,
} from '../src/index.js';
import { intersectLines, linesOf, runsOf, subtractLines } from '../src/testing/index.js';
import { plain, span as r } from './_build.js';

const modelIntersect = (a: unknown[], b: unknown[]) =>
  runsOf(intersectLines(linesOf(a), linesOf(b)));
const modelSubtract = (a: unknown[], b: unknown[]) => runsOf(subtractLines(linesOf(a), linesOf(b)));

/** Members that break a normalized run when they follow a member ending at `p`. */
function badAfter(p: number): [string, unknown][] {
  const cases: [string, unknown][] = [
    ['reversed', r(p + 5, p + 3)],
    ['fractional start', { start: p + 2.5, end: p + 5 }],
    ['fractional end', { start: p + 3, end: p + 4.5 }],
    ['NaN start', { start: Number.NaN, end: p + 5 }],
    ['NaN end', { start: p + 3, end: Number.NaN }],
    ['infinite end', { start: p + 3, end: Number.POSITIVE_INFINITY }],
    ['string start', { start: String(p + 3), end: p + 5 }],
    ['string end', { start: p + 3, end: String(p + 5) }],
    ['missing end', { start: p + 3 }],
    ['null', null],
    ['a number', p + 3],
    ['a string', 'x'],
    ['a hole', undefined],
    [
      'a throwing start',
      {
        get start(): number {
          throw new Error('hostile start');
        },
        end: p + 5,
      },
    ],
    [
      'a throwing end',
      {
        start: p + 3,
        get end(): number {
          throw new Error('hostile end');
        },
      },
    ],
  ];
  if (p > 0) {
    cases.push(['touching', r(p + 1, p + 3)], ['overlapping', r(p, p + 3)]);
    cases.push(['before', r(1, 1)]);
  } else {
    cases.push(['line 0', r(0, 3)], ['negative', r(-2, 3)]);
  }
  return cases;
}

describe('intersectRanges on normalized sets', () => {
  it.each([
    [
      'a runs out first, b keeps a tail',
      [r(1, 3), r(6, 10), r(15, 15)],
      [r(2, 7), r(10, 12), r(15, 20), r(30, 40)],
      [r(2, 3), r(6, 7), r(10, 10), r(15, 15)],
    ],
    [
      'b runs out first, a keeps a tail',
      [r(1, 5), r(10, 20), r(30, 31), r(40, 50)],
      [r(4, 12)],
      [r(4, 5), r(10, 12)],
    ],
    ['equal ends on both sides', [r(1, 5), r(9, 9)], [r(3, 5), r(7, 9)], [r(3, 5), r(9, 9)]],
    ['a one-line overlap', [r(1, 5)], [r(5, 9)], [r(5, 5)]],
    ['line 1 on both sides', [r(1, 1)], [r(1, 1)], [r(1, 1)]],
    ['line 2 on both sides', [r(2, 2), r(4, 4)], [r(2, 4)], [r(2, 2), r(4, 4)]],
    ['disjoint sets', [r(1, 2), r(9, 10)], [r(4, 6)], []],
    ['a tail of two after b ends', [r(1, 2), r(10, 12)], [r(1, 1)], [r(1, 1)]],
    ['b tail of two after a ends', [r(1, 1)], [r(1, 2), r(10, 12)], [r(1, 1)]],
    [
      'the largest safe lines',
      [r(2 ** 53 - 3, 2 ** 53 - 1)],
      [r(1, 2 ** 53 - 2)],
      [r(2 ** 53 - 3, 2 ** 53 - 2)],
    ],
    ['an empty a', [], [r(1, 2), r(5, 6)], []],
    ['an empty b', [r(1, 2), r(5, 6)], [], []],
    ['both empty', [], [], []],
  ])('%s', (_label, a, b, expected) => {
    expect(plain(intersectRanges(a, b))).toEqual(expected);
    expect(plain(intersectRanges(b, a))).toEqual(expected);
  });
});

describe('subtractRanges on normalized sets', () => {
  it.each([
    [
      'cuts in every way',
      [r(1, 10), r(20, 30), r(40, 40)],
      [r(3, 4), r(8, 22), r(25, 25), r(35, 50)],
      [r(1, 2), r(5, 7), r(23, 24), r(26, 30)],
    ],
    ['b keeps a tail past a', [r(1, 5)], [r(10, 12), r(20, 30)], [r(1, 5)]],
    ['an empty b', [r(1, 5), r(7, 7)], [], [r(1, 5), r(7, 7)]],
    ['an empty a', [], [r(1, 2), r(4, 5)], []],
    ['b covers a exactly', [r(5, 9)], [r(5, 9)], []],
    ['b starts where a starts', [r(5, 9)], [r(5, 6)], [r(7, 9)]],
    ['b ends where a starts', [r(5, 9)], [r(1, 5)], [r(6, 9)]],
    ['b ends just before a', [r(5, 9)], [r(1, 3)], [r(5, 9)]],
    ['b starts where a ends', [r(1, 5)], [r(5, 8)], [r(1, 4)]],
    ['one line left at the end', [r(1, 5)], [r(1, 4)], [r(5, 5)]],
    ['one line left at the start', [r(1, 5)], [r(2, 5)], [r(1, 1)]],
    ['b inside a', [r(1, 10)], [r(3, 4)], [r(1, 2), r(5, 10)]],
    ['b spans two of a', [r(1, 3), r(5, 10)], [r(2, 6)], [r(1, 1), r(7, 10)]],
    ['b from line 1', [r(1, 3), r(6, 8)], [r(1, 1)], [r(2, 3), r(6, 8)]],
    ['b from line 2', [r(3, 8)], [r(2, 2), r(5, 5)], [r(3, 4), r(6, 8)]],
    ['a several b past every a', [r(1, 2), r(6, 7)], [r(20, 21), r(30, 31)], [r(1, 2), r(6, 7)]],
    ['b ends exactly on an a end', [r(1, 5), r(9, 12)], [r(3, 5), r(11, 20)], [r(1, 2), r(9, 10)]],
  ])('%s', (_label, a, b, expected) => {
    expect(plain(subtractRanges(a, b))).toEqual(expected);
  });
});

describe('intersectRanges answers as the model when a member breaks the order', () => {
  const wide = r(1, 1000);
  const positions = (bad: unknown, p: number): [string, unknown[], unknown[]][] =>
    p > 0
      ? [
          // Met mid-walk: the other side still has members after this one.
          ['mid-walk', [r(1, p), bad, r(2000, 2001)], [wide]],
          // Met after the other side ran out.
          ['in the tail', [r(1, p), bad], [r(1, 1)]],
          ['deep in the tail', [r(1, 1), r(p - 1, p), bad], [r(1, 1)]],
        ]
      : [['first', [bad, r(2000, 2001)], [wide]]];

  for (const p of [0, 12]) {
    for (const [kind, bad] of badAfter(p)) {
      for (const [where, a, b] of positions(bad, p)) {
        it(`${kind} ${where} (after line ${p})`, () => {
          const expected = modelIntersect(a, b);
          expect(plain(intersectRanges(a as LineRange[], b as LineRange[]))).toEqual(expected);
          expect(plain(intersectRanges(b as LineRange[], a as LineRange[]))).toEqual(expected);
        });
      }
    }
  }

  it.each([
    ['a touches its predecessor mid-walk', [r(1, 2), r(3, 9)], [r(1, 9)], [r(1, 9)]],
    ['b overlaps its predecessor mid-walk', [r(1, 9)], [r(1, 2), r(2, 5)], [r(1, 5)]],
    ['b has a reversed member mid-walk', [r(1, 9)], [r(1, 2), r(5, 3)], [r(1, 2)]],
    ['b overlaps after a is exhausted', [r(1, 1)], [r(1, 5), r(3, 8)], [r(1, 1)]],
    ['b goes back below a after a is exhausted', [r(5, 6)], [r(1, 1), r(9, 9), r(5, 5)], [r(5, 5)]],
  ])('%s', (_label, a, b, expected) => {
    expect(plain(intersectRanges(a, b))).toEqual(expected);
    expect(plain(intersectRanges(a, b))).toEqual(modelIntersect(a, b));
  });
});

describe('subtractRanges answers as the model when a member breaks the order', () => {
  for (const p of [0, 12]) {
    for (const [kind, bad] of badAfter(p)) {
      const cases: [string, unknown[], unknown[]][] =
        p > 0
          ? [
              ['in a', [r(1, p), bad], [r(50, 60)]],
              ['in a, b empty', [r(1, p), bad], []],
              ['in a, deeper', [r(1, 1), r(p - 1, p), bad, r(2000, 2001)], [r(1, 1)]],
              ['in b mid-walk', [r(1, 1000)], [r(1, p), bad, r(900, 901)]],
              ['in b after a ends', [r(1, 2)], [r(p - 1, p), bad]],
              ['in b deep after a ends', [r(1, 2)], [r(5, 6), r(p - 1, p), bad]],
            ]
          : [
              ['first in a', [bad, r(2000, 2001)], [r(1, 2)]],
              ['first in b', [r(1, 1000)], [bad, r(2000, 2001)]],
              ['first in b, a empty', [], [bad]],
            ];
      for (const [where, a, b] of cases) {
        it(`${kind} ${where} (after line ${p})`, () => {
          expect(plain(subtractRanges(a as LineRange[], b as LineRange[]))).toEqual(
            modelSubtract(a, b),
          );
        });
      }
    }
  }

  it.each([
    ['b overlaps its predecessor mid-walk', [r(1, 20)], [r(2, 3), r(3, 9)], [r(1, 1), r(10, 20)]],
    ['b overlaps after the walk', [r(1, 2)], [r(5, 6), r(6, 9)], [r(1, 2)]],
    ['b goes back below a after the walk', [r(3, 4)], [r(1, 1), r(9, 9), r(3, 3)], [r(4, 4)]],
  ])('%s', (_label, a, b, expected) => {
    expect(plain(subtractRanges(a, b))).toEqual(expected);
    expect(plain(subtractRanges(a, b))).toEqual(modelSubtract(a, b));
  });
});

describe('a side that is not an array is the empty set', () => {
  it.each([
    ['an array-like object', { length: 1, 0: r(1, 2) }],
    ['null', null],
    ['undefined', undefined],
    ['a string', 'L1-2'],
  ])('%s', (_label, other) => {
    const notASet = other as unknown as LineRange[];
    expect(intersectRanges(notASet, [r(1, 5)])).toEqual([]);
    expect(intersectRanges([r(1, 5)], notASet)).toEqual([]);
    expect(subtractRanges(notASet, [r(1, 5)])).toEqual([]);
    expect(plain(subtractRanges([r(1, 5)], notASet))).toEqual([r(1, 5)]);
  });
});

describe('normalized input is read in one pass', () => {
  /** Normalized members whose getters count their reads. */
  function counted(ranges: LineRange[]): { list: LineRange[]; reads: () => number[] } {
    const counts = ranges.map(() => 0);
    const list = ranges.map((m, i) => ({
      get start(): number {
        counts[i]!++;
        return m.start;
      },
      get end(): number {
        return m.end;
      },
    }));
    return { list, reads: () => counts };
  }

  it('intersectRanges reads each start once', () => {
    const a = counted([r(1, 5), r(10, 20), r(30, 40)]);
    const b = counted([r(3, 12), r(35, 50)]);
    expect(plain(intersectRanges(a.list, b.list))).toEqual([r(3, 5), r(10, 12), r(35, 40)]);
    expect([a.reads(), b.reads()]).toEqual([
      [1, 1, 1],
      [1, 1],
    ]);
  });

  it('subtractRanges reads each start once', () => {
    const a = counted([r(1, 5), r(10, 20), r(30, 40)]);
    const b = counted([r(3, 12), r(35, 50)]);
    expect(plain(subtractRanges(a.list, b.list))).toEqual([r(1, 2), r(13, 20), r(30, 34)]);
    expect([a.reads(), b.reads()]).toEqual([
      [1, 1, 1],
      [1, 1],
    ]);
  });

  it('a getter that answers differently on a second read changes nothing: it is read once', () => {
    let reads = 0;
    const shifty = {
      get start(): number {
        reads++;
        return reads === 1 ? 5 : -5;
      },
      end: 9,
    };
    expect(plain(intersectRanges([shifty], [r(1, 20)]))).toEqual([r(5, 9)]);
    expect(reads).toBe(1);
  });

  it('an invalid range never reads the set', () => {
    let reads = 0;
    const set = [
      {
        get start(): number {
          reads++;
          return 1;
        },
        end: 9,
      },
    ];
    expect(plain(intersectRange(r(5, 3), set))).toEqual([]);
    expect(plain(subtractRange(r(0, 3), set))).toEqual([]);
    const d = dedupeRange(r(2, 1), set, 1);
    expect([plain(d.emit), plain(d.covered)]).toEqual([[], []]);
    expect(reads).toBe(0);
  });
});
