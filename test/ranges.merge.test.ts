/**
 * mergeRanges on inputs of every size and order, and the numeric sort inside
 * it: an LSD radix sort for line numbers below 2^32 on large inputs, the
 * engine's typed-array sort otherwise. Expected values are written out by hand
 * or come from an independent comparison sort.
 */
import { describe, expect, it } from 'vitest';
import { mergeRanges } from '../src/index.js';
import { sortNumbers } from '../src/ranges/_sort.js';
import { plain, span as r } from './_build.js';

describe('mergeRanges by the order of its input', () => {
  it('copies a normalized input member for member', () => {
    expect(plain(mergeRanges([r(1, 2), r(4, 4), r(9, 20)]))).toEqual([r(1, 2), r(4, 4), r(9, 20)]);
  });

  it('merges what touches or overlaps, sorted or not', () => {
    expect(plain(mergeRanges([r(1, 2), r(3, 4), r(4, 9), r(20, 21)]))).toEqual([
      r(1, 9),
      r(20, 21),
    ]);
    expect(plain(mergeRanges([r(20, 21), r(4, 9), r(1, 2), r(3, 4)]))).toEqual([
      r(1, 9),
      r(20, 21),
    ]);
    expect(plain(mergeRanges([r(1, 10), r(2, 3), r(5, 12)]))).toEqual([r(1, 12)]);
  });

  it('a span sorted by start that ends before an earlier one does not shorten the run', () => {
    expect(plain(mergeRanges([r(1, 10), r(2, 3), r(11, 11), r(13, 14)]))).toEqual([
      r(1, 11),
      r(13, 14),
    ]);
  });

  it('equal starts, in any order', () => {
    expect(plain(mergeRanges([r(5, 9), r(5, 6), r(1, 1)]))).toEqual([r(1, 1), r(5, 9)]);
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
    it(`${label}: entries past n untouched`, () => {
      const v = values(n, lo, hi, 3 * n + 1);
      if (label === 'up to 2^32') v[n >> 1] = 2 ** 32;
      if (label === 'three digits') v.splice(0, 4, 2 ** 22 + 1, 2 ** 22, 2 ** 23, 2 ** 23 - 1);
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

  it('sorts only the first n of a short array', () => {
    const v = Float64Array.of(5, 3, 1);
    sortNumbers(v, 2, 5);
    expect(Array.from(v)).toEqual([3, 5, 1]);
  });
});
