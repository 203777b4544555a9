/**
 * What checkRangeAlgebra is for: telling a correct implementation from a
 * broken one, and saying which law broke and how. Each case hands it this
 * library's algebra with one function broken in one specific way and expects
 * the law, and the line of the message, that catch exactly that bug. Plus the
 * checker's own edges: its argument errors, its report, its error object.
 */
import { types } from 'node:util';
import { describe, expect, it } from 'vitest';
import * as spanLedger from '../src/index.js';
import { isLineRange, type LineRange } from '../src/index.js';
import {
  checkRangeAlgebra,
  RANGE_ALGEBRA_FUNCTIONS,
  type RangeAlgebra,
} from '../src/testing/index.js';
import { cause, lawError } from './_law-error.js';

/** This library's algebra, as another implementation would hand it over. */
const ours: RangeAlgebra = spanLedger;
const { mergeRanges, countLines, rangesCover, coalesceRanges, dedupeRange } = ours;
const { intersectRange, subtractRange, intersectRanges, subtractRanges } = ours;

const RUNS = 20;

/** Runs the check on `impl`, expecting a broken law, and returns the error. */
const caught = (impl: Partial<RangeAlgebra>, numRuns = RUNS) =>
  lawError(impl, { numRuns, seed: 11 });

const LAWS = [
  'mergeRanges agrees with the line-set model (hostile members dropped, never clamped)',
  'mergeRanges is idempotent',
  'mergeRanges is order-independent',
  'mergeRanges never mutates its input and returns fresh objects',
  'intersectRange and subtractRange agree with the line-set model',
  'intersectRange and subtractRange partition the range',
  'intersectRanges and subtractRanges agree with the model and partition the first set',
  'dedupeRange agrees with the line-set model',
  'dedupeRange: emit ∪ covered = range, disjoint, covered runs ⊆ served and ≥ minCovered lines',
  'coalesceRanges agrees with the line-set model',
  'coalesceRanges never adds a line and keeps the largest spans',
  'rangesCover agrees with the line-set model, on raw sets and on merged results',
  'countLines agrees with the line-set model',
  'invalid members never change a result',
  'an invalid range or a non-array set gives empty results, never a throw',
  'large line numbers: shifting every range shifts every result',
  'large unsorted sets (thousands of members) agree with the model',
] as const;

describe('checkRangeAlgebra: arguments and report', () => {
  it('runs every law, in order, for the whole algebra; the large-set law at a tenth of numRuns', () => {
    const report = checkRangeAlgebra(ours, { numRuns: 30, seed: 3 });
    expect(report.laws).toEqual([...LAWS]);
    expect(report.skipped).toEqual([]);
    expect(report.runs).toBe(16 * 30 + 3);
    expect(checkRangeAlgebra(ours, { numRuns: 50, seed: 3 }).runs).toBe(16 * 50 + 5);
  });

  it('runs every law at least 3 times, and 100 cases per law by default', () => {
    const report = checkRangeAlgebra({ countLines }, { numRuns: 1, seed: 3 });
    expect(report.laws).toEqual([LAWS[12], LAWS[13], LAWS[14], LAWS[15], LAWS[16]]);
    expect(report.runs).toBe(5 * 3);
    expect(checkRangeAlgebra({ countLines }, { numRuns: 10, seed: 3 }).runs).toBe(4 * 10 + 3);
    expect(checkRangeAlgebra({ countLines }).runs).toBe(4 * 100 + 10);
  });

  it('lists the functions it did not find, in the algebra order', () => {
    const report = checkRangeAlgebra({ subtractRange, countLines }, { numRuns: 2, seed: 3 });
    expect(report.skipped).toEqual(
      RANGE_ALGEBRA_FUNCTIONS.filter((n) => n !== 'subtractRange' && n !== 'countLines'),
    );
    // The pair laws need both functions: with subtractRange alone they are skipped.
    expect(report.laws.some((l) => l.startsWith('intersectRange and'))).toBe(false);
  });

  it('names the functions it looks for', () => {
    expect(RANGE_ALGEBRA_FUNCTIONS.join(' ')).toBe(
      'mergeRanges intersectRange subtractRange intersectRanges subtractRanges dedupeRange coalesceRanges rangesCover countLines',
    );
    expect(Object.isFrozen(RANGE_ALGEBRA_FUNCTIONS)).toBe(true);
  });

  it.each([
    ['undefined', undefined],
    ['a number', 3],
    ['an object of non-functions', { mergeRanges: 1, countLines: 'x' }],
    [
      'an object whose getters throw',
      Object.defineProperty({}, 'countLines', {
        get: () => {
          throw new Error('hostile');
        },
      }),
    ],
  ])('rejects %s as impl with the list of what it looks for', (_label, impl) => {
    expect(() => checkRangeAlgebra(impl as never)).toThrow(
      new TypeError(
        `checkRangeAlgebra(impl): impl has none of ${RANGE_ALGEBRA_FUNCTIONS.join(', ')}`,
      ),
    );
  });

  it.each([
    ['0', { numRuns: 0 }],
    ['-3', { numRuns: -3 }],
    ['a string', { numRuns: '5' }],
    ['2^53', { numRuns: 2 ** 53 }],
    [
      'a getter that throws',
      Object.defineProperty({}, 'numRuns', {
        get: () => {
          throw new Error('hostile');
        },
      }),
    ],
  ])('rejects numRuns %s', (_label, options) => {
    expect(() => checkRangeAlgebra(ours, options as never)).toThrow(
      new TypeError('checkRangeAlgebra(impl, options): options.numRuns must be a positive integer'),
    );
  });

  it('ignores a seed that is not a number, and replays one that is', () => {
    expect(checkRangeAlgebra({ countLines }, { numRuns: 4, seed: '7' as never }).runs).toBe(
      4 * 4 + 3,
    );
    const broken = { countLines: (set: readonly LineRange[]) => countLines(set) + 1 };
    const a = caught(broken);
    const b = caught(broken);
    expect(a.seed).toBe(11);
    expect([b.seed, b.path]).toEqual([a.seed, a.path]);
    expect(a.path).toMatch(/^\d+(:\d+)*$/);
  });

  it('throws an error that carries the law, the counterexample, the seed and the replay path', () => {
    const error = caught({ countLines: (set) => countLines(set) + 1 });
    expect(error.name).toBe('RangeAlgebraLawError');
    expect(error).toBeInstanceOf(Error);
    expect(error.law).toBe(LAWS[12]);
    expect(error.counterexample).toEqual([[]]);
    const lines = error.message.split('\n');
    expect(lines).toEqual([
      `range algebra law broken: ${LAWS[12]}`,
      'counterexample: [[]]',
      'countLines: got 1, the model says 0',
      `replay with { seed: 11, path: ${JSON.stringify(error.path)} }`,
    ]);
  });
});

/** `f`, except that the result of every call goes through `change`. */
function changedBy<A extends unknown[], R>(f: (...args: A) => R, change: (r: R, ...args: A) => R) {
  return (...args: A): R => change(f(...args), ...args);
}

/** A set with one more line after its last span (an empty set gets line 500). */
const plusOne = (rs: readonly LineRange[]): LineRange[] => {
  const last = rs.at(-1);
  return last
    ? [...rs.slice(0, -1), { start: last.start, end: last.end + 1 }]
    : [{ start: 500, end: 500 }];
};

describe('the model laws name the function and what it answered', () => {
  it.each<[string, Partial<RangeAlgebra>, number, RegExp]>([
    [
      'mergeRanges',
      { mergeRanges: changedBy(mergeRanges, plusOne) },
      0,
      /^mergeRanges: got .*, the model says /,
    ],
    [
      'intersectRange',
      { ...ours, intersectRange: changedBy(intersectRange, plusOne) },
      4,
      /^intersectRange: got /,
    ],
    [
      'subtractRange',
      { ...ours, subtractRange: changedBy(subtractRange, plusOne) },
      4,
      /^subtractRange: got /,
    ],
    [
      'intersectRanges',
      { ...ours, intersectRanges: changedBy(intersectRanges, plusOne) },
      6,
      /^intersectRanges: got /,
    ],
    [
      'subtractRanges',
      { ...ours, subtractRanges: changedBy(subtractRanges, plusOne) },
      6,
      /^subtractRanges: got /,
    ],
    [
      'dedupeRange emit',
      {
        dedupeRange: changedBy(dedupeRange, (r) => ({ emit: plusOne(r.emit), covered: r.covered })),
      },
      7,
      /^dedupeRange emit: got /,
    ],
    [
      'dedupeRange covered',
      {
        dedupeRange: changedBy(dedupeRange, (r) => ({ emit: r.emit, covered: plusOne(r.covered) })),
      },
      7,
      /^dedupeRange covered: got /,
    ],
    [
      'coalesceRanges ranges',
      {
        coalesceRanges: changedBy(coalesceRanges, (r) => ({
          ranges: plusOne(r.ranges),
          truncated: r.truncated,
        })),
      },
      9,
      /^coalesceRanges ranges: got /,
    ],
    [
      'coalesceRanges truncated',
      {
        coalesceRanges: changedBy(coalesceRanges, (r) => ({
          ranges: r.ranges,
          truncated: !r.truncated,
        })),
      },
      9,
      /^coalesceRanges truncated: got (true|false), the model says (true|false)$/,
    ],
    [
      'rangesCover on a raw set',
      { rangesCover: changedBy(rangesCover, (r) => !r) },
      11,
      // The probe may be any value, a line or not (NaN, 1.5, '5').
      /^rangesCover\(set, [^)]+\): got (true|false)/,
    ],
    [
      'countLines',
      { countLines: changedBy(countLines, (n) => n + 1) },
      12,
      /^countLines: got \d+, the model says \d+$/,
    ],
  ])('%s', (_label, impl, law, message) => {
    const error = caught(impl);
    expect(error.law).toBe(LAWS[law]);
    expect(cause(error)).toMatch(message);
  });

  it('rangesCover on a set mergeRanges returned', () => {
    const merged = new WeakSet<object>();
    const error = caught({
      mergeRanges: changedBy(mergeRanges, (r) => {
        merged.add(r);
        return r;
      }),
      rangesCover: (set, line) =>
        merged.has(set) ? !rangesCover(set, line) : rangesCover(set, line),
    });
    expect(error.law).toBe(LAWS[11]);
    expect(cause(error)).toMatch(/^rangesCover\(merged, [^)]+\): got /);
  });

  it('intersectRanges answering differently with its arguments swapped', () => {
    // The law calls intersectRanges(a, b), then intersectRanges(b, a): every second call is wrong.
    let calls = 0;
    const error = caught({
      ...ours,
      intersectRanges: (a, b) =>
        ++calls % 2 === 0 ? plusOne(intersectRanges(a, b)) : intersectRanges(a, b),
    });
    expect(error.law).toBe(LAWS[6]);
    expect(cause(error)).toMatch(/^intersectRanges\(b, a\): got /);
  });
});

/** Whether `r` holds `key` as a plain data property (not a getter, not inherited). */
const hasData = (r: object, key: string): boolean =>
  'value' in (Object.getOwnPropertyDescriptor(r, key) ?? {});

/** Whether `x` is a plain, dense array of valid ranges (no proxy, no getter, no junk). */
function plainValid(x: unknown): boolean {
  return (
    Array.isArray(x) &&
    !types.isProxy(x) &&
    Object.keys(x).length === x.length &&
    x.every((r) => !types.isProxy(r) && isLineRange(r) && hasData(r, 'start') && hasData(r, 'end'))
  );
}

describe('the structural laws of mergeRanges', () => {
  it('a merge that goes wrong after the model law (one call per case) has run', () => {
    let calls = 0;
    const error = caught({
      mergeRanges: (rs) => (++calls <= RUNS ? mergeRanges(rs) : plusOne(mergeRanges(rs))),
    });
    expect(error.law).toBe(LAWS[1]);
    expect(cause(error)).toMatch(/^mergeRanges\(mergeRanges\(x\)\): got /);
  });

  it('a merge that reverses an unsorted input in place', () => {
    const unsorted = (rs: readonly LineRange[]) =>
      rs.some((r, i) => i > 0 && r.start < rs[i - 1]!.start);
    const error = caught({
      mergeRanges: (rs) => {
        if (plainValid(rs) && unsorted(rs)) (rs as LineRange[]).reverse();
        return mergeRanges(rs);
      },
    });
    expect(error.law).toBe(LAWS[3]);
    expect(cause(error)).toMatch(/^the input after mergeRanges: got /);
  });

  it('a merge that hands back its input when it is already normalized', () => {
    // Only an input that is normalized already shows it: 100 cases draw one on every seed.
    const error = caught(
      {
        mergeRanges: (rs) => {
          const out = mergeRanges(rs);
          // Compared member by member: JSON.stringify throws on a cyclic member.
          const same =
            plainValid(rs) &&
            out.length === rs.length &&
            out.every((m, i) => m.start === rs[i]!.start && m.end === rs[i]!.end);
          return same ? rs : out;
        },
      },
      100,
    );
    expect(error.law).toBe(LAWS[3]);
    expect(cause(error)).toBe('mergeRanges returned its input array');
  });
});

describe('the structural laws of dedupeRange and coalesceRanges', () => {
  it('covered runs shorter than minCovered', () => {
    // Right while the model law runs (one call per case), then covers every served line.
    // Only a case with a shared run shorter than its minCovered shows it: 100 cases
    // draw one on every seed.
    const runs = 100;
    let calls = 0;
    const error = caught(
      {
        dedupeRange: (range, served, min) =>
          ++calls <= runs
            ? dedupeRange(range, served, min)
            : {
                emit: subtractRange(range, served),
                covered: intersectRange(range, served),
              },
      },
      runs,
    );
    expect(error.law).toBe(LAWS[8]);
    expect(cause(error)).toMatch(/^covered run \{"start":\d+,"end":\d+\} is under \d+ lines$/);
  });
});

/** `f`, answering wrong once any line of its arguments reaches `from`. */
function wrongFrom<A extends unknown[], R>(from: number, f: (...args: A) => R, wrong: (r: R) => R) {
  const big = (n: unknown): boolean => Number.isSafeInteger(n) && (n as number) >= from;
  const reaches = (x: unknown): boolean => {
    if (typeof x === 'number') return big(x);
    if (plainValid(x)) return (x as LineRange[]).some((r) => big(r.end));
    return !types.isProxy(x) && isLineRange(x) && big(x.end);
  };
  return (...args: A): R => (args.some(reaches) ? wrong(f(...args)) : f(...args));
}

describe('the large line-number law', () => {
  const BIG = 2 ** 31;
  it.each<[string, Partial<RangeAlgebra>, RegExp]>([
    [
      'mergeRanges',
      { ...ours, mergeRanges: wrongFrom(BIG, mergeRanges, plusOne) },
      /^mergeRanges: got /,
    ],
    [
      'intersectRange',
      { ...ours, intersectRange: wrongFrom(BIG, intersectRange, plusOne) },
      /^intersectRange: got /,
    ],
    [
      'subtractRange',
      { ...ours, subtractRange: wrongFrom(BIG, subtractRange, plusOne) },
      /^subtractRange: got /,
    ],
    [
      'intersectRanges',
      { ...ours, intersectRanges: wrongFrom(BIG, intersectRanges, plusOne) },
      /^intersectRanges: got /,
    ],
    [
      'subtractRanges',
      { ...ours, subtractRanges: wrongFrom(BIG, subtractRanges, plusOne) },
      /^subtractRanges: got /,
    ],
    [
      'dedupeRange emit',
      {
        ...ours,
        dedupeRange: wrongFrom(BIG, dedupeRange, (r) => ({
          emit: plusOne(r.emit),
          covered: r.covered,
        })),
      },
      /^dedupeRange emit: got /,
    ],
    [
      'dedupeRange covered',
      {
        ...ours,
        dedupeRange: wrongFrom(BIG, dedupeRange, (r) => ({
          emit: r.emit,
          covered: plusOne(r.covered),
        })),
      },
      /^dedupeRange covered: got /,
    ],
    [
      'coalesceRanges',
      {
        ...ours,
        coalesceRanges: wrongFrom(BIG, coalesceRanges, (r) => ({
          ranges: plusOne(r.ranges),
          truncated: r.truncated,
        })),
      },
      /^coalesceRanges: got /,
    ],
    [
      'rangesCover',
      { ...ours, rangesCover: wrongFrom(BIG, rangesCover, (r) => !r) },
      /^rangesCover\(shifted, \d+ \+ \d+\): got /,
    ],
    [
      'countLines',
      { ...ours, countLines: wrongFrom(BIG, countLines, (n) => n + 1) },
      /^countLines: got /,
    ],
  ])('%s', (_label, impl, message) => {
    const error = caught(impl);
    expect(error.law).toBe(LAWS[15]);
    expect(cause(error)).toMatch(message);
  });
});

/** `f`, answering wrong when its first argument has at least `n` members. */
function wrongWhenLong<A extends unknown[], R>(
  n: number,
  f: (...args: A) => R,
  wrong: (r: R) => R,
) {
  return (...args: A): R =>
    plainValid(args[0]) && (args[0] as unknown[]).length >= n ? wrong(f(...args)) : f(...args);
}

describe('the large-set law', () => {
  it.each<[string, Partial<RangeAlgebra>, RegExp]>([
    [
      'mergeRanges',
      { countLines, mergeRanges: wrongWhenLong(1000, mergeRanges, plusOne) },
      /^mergeRanges: got /,
    ],
    [
      'countLines',
      { countLines: wrongWhenLong(1000, countLines, (n) => n - 1) },
      /^countLines: got /,
    ],
    [
      'subtractRanges',
      { ...ours, subtractRanges: wrongWhenLong(1000, subtractRanges, plusOne) },
      /^subtractRanges\(x, x\): got /,
    ],
  ])('%s', (_label, impl, message) => {
    const error = caught(impl);
    expect(error.law).toBe(LAWS[16]);
    expect(cause(error)).toMatch(message);
  });
});

describe('a large counterexample', () => {
  it('is printed cut short, and kept whole on the error', () => {
    const error = caught({ countLines: wrongWhenLong(1000, countLines, (n) => n - 1) });
    const [members] = error.counterexample as [LineRange[]];
    expect(members.length).toBeGreaterThanOrEqual(2048);
    const printed = error.message.split('\n')[1]!;
    expect(printed).toMatch(/… \(\d+ chars in all: see error\.counterexample\)$/);
    expect(printed.length).toBeLessThan(2100);
    expect(printed.startsWith('counterexample: [[{"start":')).toBe(true);
    // A small one is printed whole.
    expect(caught({ countLines: (set) => countLines(set) + 1 }).message).not.toContain(
      'chars in all',
    );
  });
});

describe('the non-array law', () => {
  /** `f`, answering wrong when argument `at` is not an array. */
  const wrongOnNonArray =
    <A extends unknown[], R>(at: number, f: (...args: A) => R, wrong: (r: R) => R) =>
    (...args: A): R =>
      Array.isArray(args[at]) || types.isProxy(args[at]) ? f(...args) : wrong(f(...args));

  it.each<[string, Partial<RangeAlgebra>, string]>([
    [
      'mergeRanges',
      { mergeRanges: wrongOnNonArray(0, mergeRanges, plusOne) },
      'mergeRanges(non-array)',
    ],
    [
      'intersectRanges',
      { intersectRanges: wrongOnNonArray(0, intersectRanges, plusOne) },
      'intersectRanges(non-array, b)',
    ],
    [
      'subtractRanges, first argument',
      { subtractRanges: wrongOnNonArray(0, subtractRanges, plusOne) },
      'subtractRanges(non-array, b)',
    ],
    [
      'subtractRanges, second argument',
      { subtractRanges: wrongOnNonArray(1, subtractRanges, plusOne) },
      'subtractRanges(a, non-array)',
    ],
    [
      'coalesceRanges',
      {
        coalesceRanges: wrongOnNonArray(0, coalesceRanges, (r) => ({
          ranges: plusOne(r.ranges),
          truncated: r.truncated,
        })),
      },
      'coalesceRanges(non-array)',
    ],
    [
      'rangesCover',
      { rangesCover: wrongOnNonArray(0, rangesCover, () => true) },
      'rangesCover(non-array, 1)',
    ],
    [
      'countLines',
      { countLines: wrongOnNonArray(0, countLines, () => 1) },
      'countLines(non-array)',
    ],
  ])('%s', (_label, impl, what) => {
    const error = caught(impl);
    expect(error.law).toBe(LAWS[14]);
    expect(cause(error).startsWith(`${what}: got `)).toBe(true);
  });
});
