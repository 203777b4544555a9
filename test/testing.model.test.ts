/**
 * The line-set model's own edges: what it counts as a range, and how far it
 * reads an array. The model is the yardstick checkRangeAlgebra holds other
 * implementations to, so where it is more lenient than the library it would
 * pass a lenient implementation, and where it is stricter it would fail a
 * correct one.
 */
import { describe, expect, it } from 'vitest';
import { countLines, isLineRange, rangesCover } from '../src/index.js';
import {
  coalesceModel,
  countLinesModel,
  coversLineModel,
  linesOf,
  linesOfRange,
  mergeModel,
} from '../src/testing/index.js';

describe('what the model counts as a range', () => {
  it('a function carrying a valid start and end is no range, as in the library', () => {
    const fn = Object.assign(() => undefined, { start: 2, end: 4 });
    expect(isLineRange(fn)).toBe(false);
    expect(countLines([fn] as never)).toBe(0);
    expect([...linesOfRange(fn)]).toEqual([]);
    expect([...linesOf([fn, { start: 7, end: 7 }])]).toEqual([7]);
    expect(coversLineModel([fn], 3)).toBe(false);
    expect(rangesCover([fn] as never, 3)).toBe(false);
    expect(countLinesModel([fn])).toBe(0);
    expect(mergeModel([fn])).toEqual([]);
  });
});

describe('how far the model reads an array', () => {
  it('never reads past length, even where a proxy answers with a range', () => {
    const lying = new Proxy([] as unknown[], {
      get: (target, key) => (key === '0' ? { start: 1, end: 2 } : Reflect.get(target, key)),
    });
    expect(lying.length).toBe(0);
    expect(lying[0]).toEqual({ start: 1, end: 2 });
    expect([...linesOf(lying)]).toEqual([]);
    expect(coversLineModel(lying, 1)).toBe(false);
    expect(countLinesModel(lying)).toBe(0);
    expect(coalesceModel(lying, 3)).toEqual({ ranges: [], truncated: false });
  });

  it('reads every member up to length, the last one included', () => {
    const set = [
      { start: 1, end: 1 },
      { start: 9, end: 10 },
    ];
    expect([...linesOf(set)]).toEqual([1, 9, 10]);
    expect(coversLineModel(set, 10)).toBe(true);
  });
});

describe('the model on sets a reader would ask about', () => {
  it('coalesceModel keeps the largest spans, back in line order', () => {
    const set = [
      { start: 1, end: 1 },
      { start: 3, end: 5 },
      { start: 7, end: 7 },
      { start: 9, end: 12 },
    ];
    // sizes 1, 3, 1, 4: the two largest are 9-12 and 3-5
    expect(coalesceModel(set, 2)).toEqual({
      ranges: [
        { start: 3, end: 5 },
        { start: 9, end: 12 },
      ],
      truncated: true,
    });
  });

  it('a member whose index getter throws covers nothing', () => {
    const set = [
      { start: 1, end: 2 },
      { start: 4, end: 4 },
    ];
    Object.defineProperty(set, 0, {
      get(): never {
        throw new Error('hostile index');
      },
    });
    expect([...linesOf(set)]).toEqual([4]);
  });
});
