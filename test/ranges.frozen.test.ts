/**
 * What the range functions return: a frozen array (no member can be added,
 * removed or replaced; in strict code, as in every ES module, trying throws)
 * of fresh ranges. The ranges themselves are not frozen: every function reads
 * the sets it is given as foreign input, so an edited range is judged on what
 * it says now, exactly like a copy of it, and no result can be edited into a
 * claim that a later call trusts.
 */
import { describe, expect, it } from 'vitest';
import {
  coalesceRanges,
  dedupeRange,
  intersectRange,
  intersectRanges,
  type LineRange,
  mergeRanges,
  rangesCover,
  subtractRange,
  subtractRanges,
} from '../src/index.js';
import { span as r } from './_build.js';

/** Every set a function hands out, on an input that gives each of them members. */
function results(): [string, LineRange[]][] {
  const a = [r(20, 30), r(1, 10)];
  const b = [r(5, 25)];
  const deduped = dedupeRange(r(1, 40), [r(1, 20)], 8);
  return [
    ['mergeRanges', mergeRanges(a)],
    ['intersectRanges', intersectRanges(a, b)],
    ['intersectRanges (normalized input)', intersectRanges([r(1, 10)], [r(5, 7)])],
    ['subtractRanges', subtractRanges(a, b)],
    ['subtractRanges (normalized input)', subtractRanges([r(1, 10)], [r(5, 7)])],
    ['intersectRange', intersectRange(r(1, 40), a)],
    ['subtractRange', subtractRange(r(1, 40), a)],
    ['dedupeRange emit', deduped.emit],
    ['dedupeRange covered', deduped.covered],
    ['coalesceRanges', coalesceRanges(a).ranges],
    ['coalesceRanges (cut)', coalesceRanges(a, 1).ranges],
  ];
}

describe('range results: a frozen array of fresh ranges', () => {
  it.each(results())('%s: the array is frozen', (_name, set) => {
    expect(set.length).toBeGreaterThan(0);
    expect(Object.isFrozen(set)).toBe(true);
  });

  it.each(results())('%s: replacing or adding a member throws', (_name, set) => {
    const before = JSON.stringify(set);
    expect(() => {
      set[0] = r(1, 1000);
    }).toThrow(TypeError);
    expect(() => set.push(r(1, 1000))).toThrow(TypeError);
    expect(JSON.stringify(set)).toBe(before);
  });

  it('every result range is a fresh object, never one of the input', () => {
    const a = [r(1, 10), r(20, 30)];
    const b = [r(1, 10)];
    const inputs = new Set<LineRange>([...a, ...b]);
    for (const set of [
      mergeRanges(a),
      intersectRanges(a, b),
      subtractRanges(a, [r(40, 50)]),
      coalesceRanges(a).ranges,
    ]) {
      for (const member of set) expect(inputs.has(member)).toBe(false);
    }
  });

  it('the results wrapping sets are frozen too', () => {
    expect(Object.isFrozen(dedupeRange(r(1, 40), [r(1, 20)]))).toBe(true);
    expect(Object.isFrozen(dedupeRange(r(5, 1), [r(1, 20)]))).toBe(true);
    expect(Object.isFrozen(coalesceRanges([r(1, 2)]))).toBe(true);
    expect(Object.isFrozen(coalesceRanges([r(1, 2), r(5, 6)], 1))).toBe(true);
  });

  it('empty results are frozen', () => {
    for (const set of [
      mergeRanges([]),
      mergeRanges([r(3, 1)]),
      intersectRanges([r(1, 2)], [r(5, 6)]),
      subtractRanges([r(1, 2)], [r(1, 2)]),
      intersectRange(r(2, 1), [r(1, 9)]),
      subtractRange(r(0, 1), [r(1, 9)]),
    ]) {
      expect(set).toEqual([]);
      expect(Object.isFrozen(set)).toBe(true);
    }
  });

  it('a member that cannot be replaced cannot make rangesCover over-report', () => {
    const held = mergeRanges([r(10, 20)]);
    expect(() => {
      held[0] = { start: -5, end: 20 };
    }).toThrow(TypeError);
    expect(rangesCover(held, 2)).toBe(false);
    expect(rangesCover(held, 10)).toBe(true);
  });

  it('a member edited to { start: -5, end: 20 } is read as what it says: invalid, so dropped', () => {
    const held = mergeRanges([r(10, 20), r(40, 50)]);
    const edited = held[0] as { start: number; end: number };
    edited.start = -5;
    const copy = structuredClone(held);
    expect(rangesCover(held, 2)).toBe(false);
    expect(rangesCover(held, 12)).toBe(false);
    expect(rangesCover(held, 45)).toBe(true);
    for (const other of [[r(1, 100)], [r(15, 45)]]) {
      expect(intersectRanges(held, other)).toEqual(intersectRanges(copy, other));
      expect(subtractRanges(other, held)).toEqual(subtractRanges(other, copy));
    }
    expect(intersectRanges(held, [r(1, 100)])).toEqual([r(40, 50)]);
  });

  it('a member edited to overlap its neighbour answers as a copy of the edited set does', () => {
    const held = mergeRanges([r(10, 20), r(40, 50)]);
    (held[0] as { end: number }).end = 45;
    const copy = structuredClone(held);
    expect(intersectRanges(held, [r(1, 100)])).toEqual([r(10, 50)]);
    expect(intersectRanges(held, [r(1, 100)])).toEqual(intersectRanges(copy, [r(1, 100)]));
    expect(subtractRanges([r(1, 60)], held)).toEqual([r(1, 9), r(51, 60)]);
  });

  it('the output leaves the input as it was: neither frozen nor changed', () => {
    const input = [r(20, 30), r(1, 10)];
    mergeRanges(input);
    intersectRanges(input, input);
    expect(Object.isFrozen(input)).toBe(false);
    expect(Object.isFrozen(input[0])).toBe(false);
    expect(input).toEqual([r(20, 30), r(1, 10)]);
  });
});
