/**
 * The range functions take any value as a set, and read it defensively: a
 * member that is not an object, a getter that throws, a proxy that reports a
 * strange length, a prototype that carries `start` and `end` — each reads as
 * no range, and no function throws. Expected sets are written out by hand.
 */
import { describe, expect, it } from 'vitest';
import {
  countLines,
  formatSpans,
  intersectRange,
  intersectRanges,
  isLineRange,
  type LineRange,
  mergeRanges,
  rangesCover,
  subtractRanges,
} from '../src/index.js';
import { plain, span as r } from './_build.js';

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

const hostile = {
  get start(): number {
    throw new Error('hostile');
  },
  end: 9,
};

describe('members that are not ranges read as none', () => {
  it('a primitive member, even when prototypes carry start and end', () => {
    withPollutedPrimitives(() => {
      const set = [7, 'x', r(10, 12)] as unknown as LineRange[];
      expect(plain(mergeRanges(set))).toEqual([r(10, 12)]);
      expect(plain(intersectRange(7 as never, [r(1, 10)]))).toEqual([]);
      expect(intersectRanges([7] as never, [r(1, 10)])).toEqual([]);
      expect(plain(subtractRanges([r(1, 10)], [7] as never))).toEqual([r(1, 10)]);
      expect(isLineRange(7)).toBe(false);
      expect(isLineRange('x')).toBe(false);
      expect(rangesCover([7 as never], 3)).toBe(false);
    });
  });

  it('a member whose getter throws is dropped, and the rest still count', () => {
    const set = [hostile, r(10, 12), r(1, 2)] as unknown as LineRange[];
    expect(plain(mergeRanges(set))).toEqual([r(1, 2), r(10, 12)]);
    expect(countLines(set)).toBe(5);
    expect(rangesCover(set, 11)).toBe(true);
    expect(rangesCover(set, 5)).toBe(false);
    expect(formatSpans(set)).toBe('L1-2, L10-12');
    expect(plain(intersectRanges(set, [r(1, 20)]))).toEqual([r(1, 2), r(10, 12)]);
  });

  it('a large unsorted input with invalid members merges into the valid ones', () => {
    const members: unknown[] = [];
    for (let i = 2000; i >= 1; i--) members.push(i % 3 === 0 ? r(5 * i, 5 * i + 1) : r(i, 0));
    const expected = Array.from({ length: 666 }, (_, k) => r(15 * (k + 1), 15 * (k + 1) + 1));
    expect(plain(mergeRanges(members as LineRange[]))).toEqual(expected);
  });
});

describe('lists that are not plain arrays', () => {
  /** `list` behind a proxy whose `length` reads as `length`. */
  const lengthProxy = (list: LineRange[], length: unknown) =>
    new Proxy(list, {
      get: (target, key, receiver) =>
        key === 'length' ? length : Reflect.get(target, key, receiver),
    });

  it('never reads past the length an array reports', () => {
    const proxy = lengthProxy([r(50, 60), r(1, 10)], 1);
    expect(rangesCover(proxy, 5)).toBe(false);
    expect(plain(mergeRanges(proxy))).toEqual([r(50, 60)]);
  });

  it('asks a list for no index at or past the length it reports, read plainly or guarded', () => {
    /** A getter that throws on its first read only: the plain pass stops, the guarded one reads 3. */
    const flaky = () => {
      let reads = 0;
      return {
        get start() {
          reads++;
          if (reads === 1) throw new Error('first read');
          return 3;
        },
        end: 4,
      };
    };
    for (const [first, merged] of [
      [r(50, 60), [r(1, 10), r(50, 60)]],
      [flaky(), [r(1, 10)]],
    ] as const) {
      const asked: string[] = [];
      const watched = new Proxy([first, r(1, 10), r(70, 80)] as LineRange[], {
        get: (target, key, receiver) => {
          if (typeof key === 'string' && /^\d+$/.test(key)) asked.push(key);
          return key === 'length' ? 2 : Reflect.get(target, key, receiver);
        },
      });
      expect(plain(mergeRanges(watched))).toEqual(merged);
      expect(asked.filter((i) => Number(i) >= 2)).toEqual([]);
    }
  });

  it.each([1.5, -1, Number.NaN, '2'])('reads a length of %s as empty', (length) => {
    const proxy = lengthProxy([r(1, 2), r(5, 6)], length);
    expect(mergeRanges(proxy)).toEqual([]);
    expect(rangesCover(proxy, 1)).toBe(false);
    expect(intersectRanges(proxy, [r(1, 9)])).toEqual([]);
  });

  it('a proxy whose traps throw reads as empty', () => {
    const throwing = new Proxy([r(1, 2)], {
      get: () => {
        throw new Error('trap');
      },
    });
    expect(mergeRanges(throwing)).toEqual([]);
    expect(rangesCover(throwing, 1)).toBe(false);
    expect(countLines(throwing)).toBe(0);
  });

  it('a revoked proxy reads as empty', () => {
    const { proxy, revoke } = Proxy.revocable([r(1, 2)], {});
    revoke();
    expect(mergeRanges(proxy)).toEqual([]);
    expect(rangesCover(proxy, 1)).toBe(false);
    expect(plain(subtractRanges([r(1, 3)], proxy))).toEqual([r(1, 3)]);
  });

  it('an index whose trap throws drops that member only', () => {
    const list = new Proxy([r(1, 2), r(5, 6)], {
      get: (target, key, receiver) => {
        if (key === '0') throw new Error('trap');
        return Reflect.get(target, key, receiver);
      },
    });
    expect(plain(mergeRanges(list))).toEqual([r(5, 6)]);
    expect(rangesCover(list, 5)).toBe(true);
  });
});
