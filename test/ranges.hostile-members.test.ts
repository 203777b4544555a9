/**
 * Range sets read as foreign input: a member whose getter throws is skipped,
 * a reversed member after a normalized prefix is dropped.
 */
import { describe, expect, it } from 'vitest';
import { intersectRanges, rangesCover } from '../src/index.js';

describe('range sets with hostile or unordered members', () => {
  it('rangesCover skips a member whose index getter throws', () => {
    const set = [
      { start: 1, end: 5 },
      { start: 7, end: 9 },
    ];
    Object.defineProperty(set, 0, {
      get(): never {
        throw new Error('hostile index');
      },
    });
    expect(rangesCover(set, 3)).toBe(false);
    expect(rangesCover(set, 8)).toBe(true);
  });

  it('intersectRanges drops a reversed member that follows a normalized prefix', () => {
    expect(
      intersectRanges(
        [{ start: 1, end: 1 }],
        [
          { start: 1, end: 5 },
          { start: 8, end: 6 },
        ],
      ),
    ).toEqual([{ start: 1, end: 1 }]);
  });
});
