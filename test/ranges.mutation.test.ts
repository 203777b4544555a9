/**
 * The internal contracts of the range algebra, tested directly: the fast paths
 * (the direct walk over normalized arrays, the packed form, the numeric sort,
 * the binary search over library results) whose failure the public functions
 * would hide by falling back to a slower path with the same answer. Every
 * expected value is written out by hand or comes from an independent sort.
 */
import { describe, expect, it } from 'vitest';
import {
  coalesceRanges,
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
import { intersectNormalized, subtractNormalized } from '../src/ranges/_direct.js';
import { sortNumbers } from '../src/ranges/_sort.js';
import {
  EMPTY,
  firstEndingAtOrAfter,
  isProduced,
  SpanWriter,
  spansOf,
  toSpans,
} from '../src/ranges/_spans.js';
import { longRuns } from '../src/ranges/dedupe.js';
import { intersectSpans, subtractSpans } from '../src/ranges/setops.js';

const r = (start: number, end: number): LineRange => ({ start, end });
const plain = (ranges: readonly LineRange[] | undefined) =>
  ranges?.map(({ start, end }) => ({ start, end }));
/** The first `n` spans of a packed set, as ranges. */
const unpack = (spans: { s: ArrayLike<number>; e: ArrayLike<number>; n: number }) =>
  Array.from({ length: spans.n }, (_, i) => r(spans.s[i]!, spans.e[i]!));

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

/** Runs `body` while numbers and strings carry `start`/`end` on their prototypes. */
function withPollutedPrimitives(body: () => void): void {
  const protos = [Number.prototype, String.prototype];
  for (const proto of protos) {
    Object.defineProperty(proto, 'start', { value: 3, configurable: true, writable: true });
    Object.defineProperty(proto, 'end', { value: 4, configurable: true, writable: true });
  }
  try {
    body();
  } finally {
    for (const proto of protos) {
      delete (proto as { start?: unknown }).start;
      delete (proto as { end?: unknown }).end;
    }
  }
}

describe('intersectNormalized: the exact answer for normalized input', () => {
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
    expect(plain(intersectNormalized(a, b))).toEqual(expected);
    expect(plain(intersectNormalized(b, a))).toEqual(expected);
  });
});

describe('intersectNormalized: undefined for anything not normalized', () => {
  const wide = r(1, 1000);
  const positions = (bad: unknown, p: number): [string, unknown[], unknown[]][] =>
    p > 0
      ? [
          // Met mid-walk: the other side still has spans after this one.
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
          expect(intersectNormalized(a, b)).toBeUndefined();
          expect(intersectNormalized(b, a)).toBeUndefined();
        });
      }
    }
  }

  it.each([
    ['an array-like object', { length: 1, 0: r(1, 2) }],
    ['null', null],
    ['undefined', undefined],
    ['a string', 'L1-2'],
  ])('%s on either side', (_label, other) => {
    expect(intersectNormalized(other, [r(1, 5)])).toBeUndefined();
    expect(intersectNormalized([r(1, 5)], other)).toBeUndefined();
  });

  it('a primitive member, even when prototypes carry start and end', () => {
    withPollutedPrimitives(() => {
      expect(intersectNormalized([7], [r(1, 10)])).toBeUndefined();
      expect(intersectNormalized([r(1, 10)], ['x'])).toBeUndefined();
    });
  });
});

describe('subtractNormalized: the exact answer for normalized input', () => {
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
    expect(plain(subtractNormalized(a, b))).toEqual(expected);
  });
});

describe('subtractNormalized: undefined for anything not normalized', () => {
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
          expect(subtractNormalized(a, b)).toBeUndefined();
        });
      }
    }
  }

  it.each([
    ['an array-like object', { length: 1, 0: r(1, 2) }],
    ['null', null],
    ['a string', 'L1-2'],
  ])('%s on either side', (_label, other) => {
    expect(subtractNormalized(other, [r(1, 5)])).toBeUndefined();
    expect(subtractNormalized([r(1, 5)], other)).toBeUndefined();
  });

  it('a primitive member, even when prototypes carry start and end', () => {
    withPollutedPrimitives(() => {
      expect(subtractNormalized([7], [r(1, 10)])).toBeUndefined();
      expect(subtractNormalized([r(1, 10)], [7])).toBeUndefined();
    });
  });
});

describe('intersectRanges and subtractRanges read normalized input in one pass', () => {
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

  it('results are recognized as the library’s own', () => {
    expect(isProduced(intersectRanges([r(1, 5)], [r(2, 9)]))).toBe(true);
    expect(isProduced(subtractRanges([r(1, 5)], [r(2, 9)]))).toBe(true);
  });
});

describe('isProduced', () => {
  it('is true for an unchanged library result, false once its length changes', () => {
    const out = mergeRanges([r(1, 2), r(5, 6)]);
    expect(isProduced(out)).toBe(true);
    out.push(r(9, 9));
    expect(isProduced(out)).toBe(false);
  });

  it('is false for arrays the library did not build, and for non-objects', () => {
    expect(isProduced([r(1, 2)])).toBe(false);
    expect(isProduced(mergeRanges([]).slice())).toBe(false);
    for (const x of [null, undefined, 0, 'x', true]) expect(isProduced(x)).toBe(false);
  });

  it('an empty library result is its own too', () => {
    expect(isProduced(mergeRanges([]))).toBe(true);
  });
});

describe('rangesCover on a library result binary-searches', () => {
  const spans = Array.from({ length: 64 }, (_, i) => r(10 * i + 1, 10 * i + 5));

  it('answers at both ends of every span and in the gaps', () => {
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

  it('never reads a member far from the line asked about', () => {
    const set = mergeRanges(spans);
    let reads = 0;
    Object.defineProperty(set, 0, {
      get(): LineRange {
        reads++;
        return r(1, 5);
      },
    });
    expect(rangesCover(set, 635)).toBe(true);
    expect(rangesCover(set, 636)).toBe(false);
    expect(reads).toBe(0);
  });

  it('never reads past the length an array reports', () => {
    const proxy = new Proxy([r(50, 60), r(1, 10)], {
      get: (target, key, receiver) => (key === 'length' ? 1 : Reflect.get(target, key, receiver)),
    });
    expect(rangesCover(proxy, 5)).toBe(false);
    expect(plain(mergeRanges(proxy))).toEqual([r(50, 60)]);
  });

  it('rejects a line that is not a positive safe integer', () => {
    const set = mergeRanges([r(1, 5)]);
    for (const line of [0, -1, 1.5, Number.NaN]) {
      expect(rangesCover(set, line)).toBe(false);
      expect(rangesCover([r(1, 5)], line)).toBe(false);
    }
  });
});

describe('toSpans', () => {
  it('packs a normalized input member for member', () => {
    expect(unpack(toSpans([r(1, 2), r(4, 4), r(9, 20)]))).toEqual([r(1, 2), r(4, 4), r(9, 20)]);
  });

  it('merges what touches or overlaps, sorted or not', () => {
    expect(unpack(toSpans([r(1, 2), r(3, 4), r(4, 9), r(20, 21)]))).toEqual([r(1, 9), r(20, 21)]);
    expect(unpack(toSpans([r(20, 21), r(4, 9), r(1, 2), r(3, 4)]))).toEqual([r(1, 9), r(20, 21)]);
    expect(unpack(toSpans([r(1, 10), r(2, 3), r(5, 12)]))).toEqual([r(1, 12)]);
  });

  it('reads a length that is not a positive safe integer as empty', () => {
    for (const length of [1.5, -1, Number.NaN, '2']) {
      const proxy = new Proxy([r(1, 2), r(5, 6)], {
        get: (target, key, receiver) =>
          key === 'length' ? length : Reflect.get(target, key, receiver),
      });
      expect(toSpans(proxy).n).toBe(0);
    }
  });

  it('drops a primitive member even when prototypes carry start and end', () => {
    const hostile = {
      get start(): number {
        throw new Error('hostile');
      },
      end: 9,
    };
    withPollutedPrimitives(() => {
      expect(toSpans([7, 'x', r(10, 12)]).n).toBe(1);
      // A throwing getter sends the whole set through the guarded reader.
      expect(unpack(toSpans([hostile, 7, 'x', r(10, 12)]))).toEqual([r(10, 12)]);
      expect(plain(intersectRange(7 as never, [r(1, 10)]))).toEqual([]);
      expect(isLineRange(7)).toBe(false);
      expect(isLineRange('x')).toBe(false);
      expect(rangesCover([7 as never], 3)).toBe(false);
    });
  });

  it('packs a large unsorted input, with invalid members, into the same set as the model', () => {
    const members: unknown[] = [];
    for (let i = 2000; i >= 1; i--) members.push(i % 3 === 0 ? r(5 * i, 5 * i + 1) : r(i, 0));
    const expected = Array.from({ length: 666 }, (_, k) => r(15 * (k + 1), 15 * (k + 1) + 1));
    expect(unpack(toSpans(members))).toEqual(expected);
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

  it('on a set of one span', () => {
    const one = spansOf([4], [8], 1);
    expect([3, 8, 9].map((l) => firstEndingAtOrAfter(one, l))).toEqual([0, 0, 1]);
  });
});

describe('longRuns', () => {
  const held = spansOf([1, 10, 50], [5, 20, 90], 2);
  it('keeps runs at least minCovered long, and only the first n', () => {
    expect(unpack(longRuns(held, 1))).toEqual([r(1, 5), r(10, 20)]);
    expect(unpack(longRuns(held, 5))).toEqual([r(1, 5), r(10, 20)]);
    expect(unpack(longRuns(held, 6))).toEqual([r(10, 20)]);
    expect(unpack(longRuns(held, 12))).toEqual([]);
  });
});

describe('SpanWriter', () => {
  it('keeps a one-line span, and a first span', () => {
    const w = new SpanWriter();
    w.push(3, 3);
    w.push(7, 7);
    expect(unpack(w.done())).toEqual([r(3, 3), r(7, 7)]);
  });

  it('never shrinks a span it joins into', () => {
    const w = new SpanWriter(2);
    w.push(1, 10);
    w.push(3, 5);
    w.push(10, 10);
    w.push(11, 12);
    w.push(14, 15);
    expect(unpack(w.done())).toEqual([r(1, 12), r(14, 15)]);
  });
});

describe('sortNumbers', () => {
  /** `n` pseudo-random values in [lo, hi], deterministic. */
  function values(n: number, lo: number, hi: number, seed: number): number[] {
    let x = seed >>> 0 || 1;
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      x >>>= 0;
      out.push(lo + ((x * 2654435761) % Math.min(hi - lo + 1, 2 ** 32)));
    }
    return out;
  }
  const ascending = (v: number[]) => [...v].sort((x, y) => x - y);

  const classes: [string, number, number, number][] = [
    ['few small', 5, 1, 9],
    ['just under the radix size', 2047, 1, 2 ** 20],
    ['one digit', 3000, 1, 2047],
    ['two digits', 3000, 1, 2 ** 22 - 1],
    ['three digits', 3000, 2 ** 22, 2 ** 23],
    ['the top bit', 2048, 2 ** 31, 2 ** 32 - 1],
    ['up to 2^32', 2048, 1, 2 ** 32],
    ['past 2^32', 2500, 2 ** 32 - 500, 2 ** 40],
    ['many equal', 3000, 7, 9],
  ];

  for (const [label, n, lo, hi] of classes) {
    it(`${label}: a plain array, entries past n untouched`, () => {
      const v = values(n, lo, hi, n + lo);
      v.push(hi, lo, 0.5); // a tail past n that must stay as it is
      if (label === 'up to 2^32') v[n >> 1] = 2 ** 32;
      if (label === 'three digits') v.splice(0, 4, 2 ** 22 + 1, 2 ** 22, 2 ** 23, 2 ** 23 - 1);
      const head = v.slice(0, n);
      const max = Math.max(...head);
      sortNumbers(v, n, max);
      expect(v.length).toBe(n + 3);
      expect(v.slice(0, n)).toEqual(ascending(head));
      expect(v.slice(n)).toEqual([hi, lo, 0.5]);
    });

    it(`${label}: a Float64Array, entries past n untouched`, () => {
      const v = values(n, lo, hi, 3 * n + 1);
      const head = v.slice();
      const typed = new Float64Array(n + 2);
      typed.set(v);
      typed[n] = 1;
      typed[n + 1] = 0.25;
      sortNumbers(typed, n, Math.max(...head));
      expect(Array.from(typed.subarray(0, n))).toEqual(ascending(head));
      expect([typed[n], typed[n + 1]]).toEqual([1, 0.25]);
    });
  }

  it('sorts only the first n of a short plain array', () => {
    const v = [5, 3, 1];
    sortNumbers(v, 2, 5);
    expect(v).toEqual([3, 5, 1]);
  });
});

describe('coalesceRanges and formatSpans at their limits', () => {
  it('a negative max keeps nothing, and an empty set is never truncated', () => {
    expect(coalesceRanges([], -1)).toEqual({ ranges: [], truncated: false });
    expect(coalesceRanges([], 0)).toEqual({ ranges: [], truncated: false });
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

  it('formatSpans with max 0 or a negative max', () => {
    const set = [r(1, 1), r(3, 4), r(6, 6)];
    expect(formatSpans(set, 0)).toBe('+3 more spans');
    expect(formatSpans(set, -1)).toBe('L1, L3-4, L6');
    expect(formatSpans([r(1, 1), r(3, 3), r(5, 5), r(7, 7), r(9, 9)], -2)).toBe(
      'L1, L3, L5, L7, +1 more span',
    );
  });
});

describe('empty sets short-cut', () => {
  const some = spansOf([1, 10], [5, 12], 2);
  const none = spansOf([], [], 0);

  it('toSpans gives the shared empty set when nothing valid remains', () => {
    expect(toSpans([r(5, 3), null])).toBe(EMPTY);
    expect(toSpans([])).toBe(EMPTY);
  });

  it('intersectSpans with an empty side is the shared empty set', () => {
    expect(intersectSpans(none, some)).toBe(EMPTY);
    expect(intersectSpans(some, none)).toBe(EMPTY);
    expect(intersectSpans(spansOf([3], [4], 1), none)).toBe(EMPTY);
  });

  it('subtractSpans returns an empty a as the shared empty set, and a itself when b is empty', () => {
    expect(subtractSpans(none, some)).toBe(EMPTY);
    expect(subtractSpans(some, none)).toBe(some);
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
