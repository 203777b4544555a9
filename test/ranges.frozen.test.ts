/**
 * What the range functions return is frozen, the array and every member: a
 * caller cannot edit a result into a claim that a later call trusts. In
 * strict code (every ES module, this file) an edit throws.
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

const r = (start: number, end: number): LineRange => ({ start, end });

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

describe('range results are frozen', () => {
  it.each(results())('%s: the array and each member', (_name, set) => {
    expect(set.length).toBeGreaterThan(0);
    expect(Object.isFrozen(set)).toBe(true);
    for (const member of set) expect(Object.isFrozen(member)).toBe(true);
  });

  it.each(results())('%s: replacing, adding or editing a member throws', (_name, set) => {
    const before = JSON.stringify(set);
    expect(() => {
      set[0] = r(1, 1000);
    }).toThrow(TypeError);
    expect(() => set.push(r(1, 1000))).toThrow(TypeError);
    expect(() => {
      (set[0] as { end: number }).end = 1000;
    }).toThrow(TypeError);
    expect(JSON.stringify(set)).toBe(before);
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

  it('a member replaced with { start: -5, end: 20 } cannot make rangesCover over-report', () => {
    const held = mergeRanges([r(10, 20)]);
    expect(() => {
      held[0] = { start: -5, end: 20 };
    }).toThrow(TypeError);
    expect(rangesCover(held, 2)).toBe(false);
    expect(rangesCover(held, 10)).toBe(true);
  });

  it('freezing the output leaves the input as it was: neither frozen nor changed', () => {
    const input = [r(20, 30), r(1, 10)];
    mergeRanges(input);
    intersectRanges(input, input);
    expect(Object.isFrozen(input)).toBe(false);
    expect(Object.isFrozen(input[0])).toBe(false);
    expect(input).toEqual([r(20, 30), r(1, 10)]);
  });
});
