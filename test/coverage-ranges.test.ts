/**
 * The direct walk over already-normalized sets gives up as soon as a member
 * breaks the order (overlapping, touching, reversed) and the general path
 * answers instead. Each place it can give up, pinned against the line-set
 * model, so the answer never depends on which path ran.
 */
import { describe, expect, it } from 'vitest';
import { intersectRanges, type LineRange, subtractRanges } from '../src/index.js';
import { intersectLines, linesOf, runsOf, subtractLines } from '../src/testing/model.js';

const r = (start: number, end: number): LineRange => ({ start, end });

describe('the direct walk hands over to the general path', () => {
  it.each([
    ['a touches its predecessor mid-walk', [r(1, 2), r(3, 9)], [r(1, 9)]],
    ['b overlaps its predecessor mid-walk', [r(1, 9)], [r(1, 2), r(2, 5)]],
    ['b has a reversed member mid-walk', [r(1, 9)], [r(1, 2), r(5, 3)]],
    ['b overlaps after a is exhausted', [r(1, 1)], [r(1, 5), r(3, 8)]],
  ])('intersectRanges when %s', (_label, a, b) => {
    expect(intersectRanges(a, b)).toEqual(runsOf(intersectLines(linesOf(a), linesOf(b))));
  });

  it.each([
    ['b overlaps its predecessor mid-walk', [r(1, 20)], [r(2, 3), r(3, 9)]],
    ['b overlaps after the walk', [r(1, 2)], [r(5, 6), r(6, 9)]],
  ])('subtractRanges when %s', (_label, a, b) => {
    expect(subtractRanges(a, b)).toEqual(runsOf(subtractLines(linesOf(a), linesOf(b))));
  });

  it('the hand-over answers match hand-computed sets', () => {
    expect(intersectRanges([r(1, 2), r(3, 9)], [r(1, 9)])).toEqual([r(1, 9)]);
    expect(subtractRanges([r(1, 20)], [r(2, 3), r(3, 9)])).toEqual([r(1, 1), r(10, 20)]);
  });
});
