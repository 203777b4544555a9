/**
 * checkRangeAlgebra, check by check: each thing a law looks at, reached by an
 * implementation that passes everything before it and breaks only that, and
 * the law and message it is reported under. Also what the checker accepts as
 * an implementation and how it prints what it could not stringify.
 *
 * The model laws run first and catch almost every bug. To get past them, an
 * implementation here either goes wrong only on an input no earlier law hands
 * it, or answers right for the calls the earlier laws make and wrong after:
 * each law runs `numRuns` cases, with a known number of calls per case.
 */
import { types } from 'node:util';
import { describe, expect, it } from 'vitest';
import * as spanLedger from '../src/index.js';
import { isLineRange, type LineRange } from '../src/index.js';
import {
  checkRangeAlgebra,
  type RangeAlgebra,
  RangeAlgebraLawError,
} from '../src/testing/index.js';
import { cause, lawError } from './_law-error.js';

/** This library's algebra, as another implementation would hand it over. */
const ours: RangeAlgebra = spanLedger;
const { mergeRanges, countLines, rangesCover, coalesceRanges, dedupeRange } = ours;
const { intersectRange, subtractRange, intersectRanges, subtractRanges } = ours;

const RUNS = 20;

const LAW = {
  merge: 'mergeRanges agrees with the line-set model (hostile members dropped, never clamped)',
  idempotent: 'mergeRanges is idempotent',
  order: 'mergeRanges is order-independent',
  fresh: 'mergeRanges never mutates its input and returns fresh objects',
  pairModel: 'intersectRange and subtractRange agree with the line-set model',
  partition: 'intersectRange and subtractRange partition the range',
  sets: 'intersectRanges and subtractRanges agree with the model and partition the first set',
  dedupe: 'dedupeRange agrees with the line-set model',
  dedupeParts:
    'dedupeRange: emit ∪ covered = range, disjoint, covered runs ⊆ served and ≥ minCovered lines',
  coalesce: 'coalesceRanges agrees with the line-set model',
  coalesceCut: 'coalesceRanges never adds a line and keeps the largest spans',
  cover: 'rangesCover agrees with the line-set model, on raw sets and on merged results',
  count: 'countLines agrees with the line-set model',
  junk: 'invalid members never change a result',
  invalid: 'an invalid range or a non-array set gives empty results, never a throw',
  largeLines: 'large line numbers: shifting every range shifts every result',
  largeSets: 'large unsorted sets (thousands of members) agree with the model',
} as const;

/** Runs the check on `impl`, expecting a broken law, and returns the error. */
const caught = (impl: Partial<RangeAlgebra>, seed: unknown = 11, numRuns = RUNS) =>
  lawError(impl, { numRuns, seed: seed as number });

/**
 * Cases for a bug only some `minCovered` values show (a drawn invalid range
 * or an empty overlap shows none): enough that every seed draws one.
 */
const MIN_RUNS = 300;

// biome-ignore lint/suspicious/noExplicitAny: any function shape, as the algebra's differ
type Fn = (...args: any[]) => any;

/** `good` for the first `calls` calls, `bad` after them. */
function rightFor<F extends Fn>(calls: number, good: F, bad: Fn): F {
  let n = 0;
  return ((...args: unknown[]) => (++n > calls ? bad(...args) : good(...args))) as F;
}

/** `f` for the first `calls` calls; after those, every second call answers `bad`. */
function thenEverySecond<F extends Fn>(calls: number, f: F, bad: Fn): F {
  let n = 0;
  return ((...args: unknown[]) =>
    ++n > calls && (n - calls) % 2 === 0 ? bad(...args) : f(...args)) as F;
}

/** Whether `x` is a plain, dense array of valid ranges (no proxy, no getter, no junk). */
function plainValid(x: unknown): x is LineRange[] {
  return (
    !types.isProxy(x) &&
    Array.isArray(x) &&
    Object.keys(x).length === x.length &&
    x.every((r) => !types.isProxy(r) && isLineRange(r) && Object.hasOwn(r, 'start'))
  );
}

/** A set with one more line after its last span (an empty set gets line 500). */
const plusOne = (rs: readonly LineRange[]): LineRange[] => {
  const last = rs.at(-1);
  return last
    ? [...rs.slice(0, -1), { start: last.start, end: last.end + 1 }]
    : [{ start: 500, end: 500 }];
};

describe('a result that is not a set of ranges is named at the law that reads it', () => {
  const nothing = () => null;
  it.each<[string, Partial<Record<keyof RangeAlgebra, Fn>>, string, string]>([
    [
      'mergeRanges with a null member',
      { mergeRanges: () => [null] },
      LAW.merge,
      'mergeRanges returned a member null',
    ],
    [
      'mergeRanges, once the model law has run',
      { mergeRanges: rightFor(RUNS, mergeRanges, nothing) },
      LAW.idempotent,
      'mergeRanges returned null, not an array',
    ],
    [
      'mergeRanges of its own result',
      // idempotence calls mergeRanges(x), then mergeRanges of that
      { mergeRanges: thenEverySecond(RUNS, mergeRanges, nothing) },
      LAW.idempotent,
      'mergeRanges returned null, not an array',
    ],
    [
      'mergeRanges of a shuffled set',
      // the model law: one call per case; idempotence: two
      { mergeRanges: rightFor(3 * RUNS, mergeRanges, nothing) },
      LAW.order,
      'mergeRanges returned null, not an array',
    ],
    [
      'mergeRanges of the set in its first order',
      { mergeRanges: thenEverySecond(3 * RUNS, mergeRanges, nothing) },
      LAW.order,
      'mergeRanges returned null, not an array',
    ],
    [
      'intersectRange',
      { ...ours, intersectRange: nothing },
      LAW.pairModel,
      'intersectRange returned null, not an array',
    ],
    [
      'subtractRange',
      { ...ours, subtractRange: nothing },
      LAW.pairModel,
      'subtractRange returned null, not an array',
    ],
    [
      'intersectRange, once the model law has run',
      { ...ours, intersectRange: rightFor(RUNS, intersectRange, nothing) },
      LAW.partition,
      'intersectRange returned null, not an array',
    ],
    [
      'subtractRange, once the model law has run',
      { ...ours, subtractRange: rightFor(RUNS, subtractRange, nothing) },
      LAW.partition,
      'subtractRange returned null, not an array',
    ],
    [
      'intersectRanges',
      { ...ours, intersectRanges: nothing },
      LAW.sets,
      'intersectRanges returned null, not an array',
    ],
    [
      'subtractRanges',
      { ...ours, subtractRanges: nothing },
      LAW.sets,
      'subtractRanges returned null, not an array',
    ],
    [
      'intersectRanges with its arguments swapped',
      // the law calls intersectRanges(a, b), then intersectRanges(b, a)
      { ...ours, intersectRanges: thenEverySecond(0, intersectRanges, nothing) },
      LAW.sets,
      'intersectRanges returned null, not an array',
    ],
    [
      'dedupeRange emit',
      { dedupeRange: () => ({ emit: null, covered: [] }) },
      LAW.dedupe,
      'dedupeRange emit returned null, not an array',
    ],
    [
      'dedupeRange covered',
      { dedupeRange: (r, s, m) => ({ emit: dedupeRange(r, s, m).emit, covered: null }) },
      LAW.dedupe,
      'dedupeRange covered returned null, not an array',
    ],
    [
      'dedupeRange emit, once the model law has run',
      { dedupeRange: rightFor(RUNS, dedupeRange, () => ({ emit: null, covered: [] })) },
      LAW.dedupeParts,
      'dedupeRange emit returned null, not an array',
    ],
    [
      'dedupeRange covered, once the model law has run',
      {
        dedupeRange: rightFor(RUNS, dedupeRange, (r, s, m) => ({
          emit: dedupeRange(r, s, m).emit,
          covered: null,
        })),
      },
      LAW.dedupeParts,
      'dedupeRange covered returned null, not an array',
    ],
    [
      'coalesceRanges',
      { coalesceRanges: () => ({ ranges: null, truncated: false }) },
      LAW.coalesce,
      'coalesceRanges returned null, not an array',
    ],
    [
      'coalesceRanges, once the model law has run',
      {
        coalesceRanges: rightFor(RUNS, coalesceRanges, () => ({ ranges: null, truncated: false })),
      },
      LAW.coalesceCut,
      'coalesceRanges returned null, not an array',
    ],
    [
      'subtractRanges of a non-array',
      { subtractRanges: (a, b) => (Array.isArray(b) ? subtractRanges(a, b) : null) },
      LAW.invalid,
      'subtractRanges returned null, not an array',
    ],
    [
      'coalesceRanges of large line numbers',
      {
        coalesceRanges: (rs, max) =>
          plainValid(rs) && rs.some((r) => r.end >= 2 ** 31)
            ? { ranges: null, truncated: false }
            : coalesceRanges(rs, max),
      },
      LAW.largeLines,
      'coalesceRanges returned null, not an array',
    ],
    [
      'mergeRanges of thousands of members',
      { mergeRanges: (rs) => (plainValid(rs) && rs.length >= 1000 ? null : mergeRanges(rs)) },
      LAW.largeSets,
      'mergeRanges returned null, not an array',
    ],
    [
      'subtractRanges of thousands of members',
      {
        subtractRanges: (a, b) => (plainValid(a) && a.length >= 1000 ? null : subtractRanges(a, b)),
      },
      LAW.largeSets,
      'subtractRanges returned null, not an array',
    ],
  ])('%s', (_label, impl, law, message) => {
    const error = caught(impl as Partial<RangeAlgebra>);
    expect(error.law).toBe(law);
    expect(cause(error)).toBe(message);
  });
});

describe('the structural laws, each check reached', () => {
  it('mergeRanges answering differently for a shuffled set', () => {
    const unsorted = (rs: readonly LineRange[]) =>
      rs.some((r, i) => i > 0 && r.start < rs[i - 1]!.start);
    // Only a case where one of the two orders is unsorted shows it: 100 cases draw
    // one on every seed.
    const runs = 100;
    const error = caught(
      {
        mergeRanges: rightFor(runs, mergeRanges, (rs) =>
          plainValid(rs) && unsorted(rs) ? plusOne(mergeRanges(rs)) : mergeRanges(rs),
        ),
      },
      11,
      runs,
    );
    expect(error.law).toBe(LAW.order);
    expect(cause(error)).toMatch(/^mergeRanges of a permutation: got \[.*\], the model says \[/);
  });

  it('mergeRanges handing back an input member', () => {
    const error = caught({
      mergeRanges: (rs) =>
        plainValid(rs)
          ? mergeRanges(rs).map((m) => rs.find((r) => r.start === m.start && r.end === m.end) ?? m)
          : mergeRanges(rs),
    });
    expect(error.law).toBe(LAW.fresh);
    expect(cause(error)).toBe('mergeRanges returned an input member');
  });

  it('intersectRange and subtractRange as many lines as the range, but not its lines', () => {
    // Past the model law, a range of two lines or more has nothing inside and
    // itself moved down a line outside: disjoint, the right count, the wrong lines.
    const long = (r: LineRange) => isLineRange(r) && r.end > r.start;
    const error = caught({
      intersectRange: rightFor(RUNS, intersectRange, (r, set) =>
        long(r) ? [] : intersectRange(r, set),
      ),
      subtractRange: rightFor(RUNS, subtractRange, (r, set) =>
        long(r) ? [{ start: r.start + 1, end: r.end + 1 }] : subtractRange(r, set),
      ),
    });
    expect(error.law).toBe(LAW.partition);
    expect(cause(error)).toBe('intersectRange ∪ subtractRange is not the range');
  });
});

/**
 * `f`, answering through `wrong` when argument `at` is a set holding junk
 * whose valid members it was already handed in a set without junk: the junk
 * law's second call (the set as drawn, after the same set with its junk
 * dropped), which no other law makes.
 */
function wrongOnJunk<F extends Fn>(at: number, f: F, wrong: (result: ReturnType<F>) => unknown): F {
  const seenWithoutJunk = new WeakSet<object>();
  return ((...args: unknown[]) => {
    const out = f(...args);
    const set = args[at];
    if (types.isProxy(set) || !Array.isArray(set)) return out;
    const members: unknown[] = Array.from(set);
    const valid = members.filter((m): m is LineRange => !types.isProxy(m) && isLineRange(m));
    if (valid.length === members.length) {
      for (const m of valid) seenWithoutJunk.add(m);
      return out;
    }
    return valid.length > 0 && valid.every((m) => seenWithoutJunk.has(m)) ? wrong(out) : out;
  }) as F;
}

describe('the junk law checks every function', () => {
  it.each<[keyof RangeAlgebra, Partial<RangeAlgebra>]>([
    ['mergeRanges', { mergeRanges: wrongOnJunk(0, mergeRanges, plusOne) }],
    ['intersectRange', { intersectRange: wrongOnJunk(1, intersectRange, plusOne) }],
    ['subtractRange', { subtractRange: wrongOnJunk(1, subtractRange, plusOne) }],
    ['intersectRanges', { intersectRanges: wrongOnJunk(0, intersectRanges, plusOne) }],
    // junk in the second set only
    ['subtractRanges', { subtractRanges: wrongOnJunk(1, subtractRanges, () => []) }],
    [
      'dedupeRange',
      {
        dedupeRange: wrongOnJunk(1, dedupeRange, (r) => ({
          emit: plusOne(r.emit),
          covered: r.covered,
        })),
      },
    ],
    [
      'coalesceRanges',
      {
        coalesceRanges: wrongOnJunk(0, coalesceRanges, (r) => ({
          ranges: plusOne(r.ranges),
          truncated: r.truncated,
        })),
      },
    ],
    ['rangesCover', { rangesCover: wrongOnJunk(0, rangesCover, (covers) => !covers) }],
    ['countLines', { countLines: wrongOnJunk(0, countLines, (n) => n + 1) }],
  ])('%s', (name, impl) => {
    const error = caught(impl);
    expect(error.law).toBe(LAW.junk);
    expect(cause(error).startsWith(`${name} with invalid members: got `)).toBe(true);
  });

  it('prints the two results as JSON with numbers as strings, so NaN is not null', () => {
    const error = caught({ countLines: wrongOnJunk(0, countLines, (n) => n + 1) });
    const [, got, model] =
      /^countLines with invalid members: got "\\"(\d+)\\"", the model says "\\"(\d+)\\""$/.exec(
        cause(error),
      ) ?? [];
    expect(Number(got)).toBe(Number(model) + 1);
  });

  it('prints an undefined result as an empty string', () => {
    const error = caught({ countLines: wrongOnJunk(0, countLines, () => undefined) });
    expect(cause(error)).toMatch(
      /^countLines with invalid members: got "", the model says "\\"\d+\\""$/,
    );
  });

  it('prints a result it cannot serialize as <unserializable>', () => {
    const cyclic = (rs: readonly LineRange[]) =>
      rs.map((r) => {
        const o: Record<string, unknown> = { ...r };
        o.self = o;
        return o;
      });
    const error = caught({ mergeRanges: wrongOnJunk(0, mergeRanges, cyclic) });
    expect(cause(error)).toMatch(
      /^mergeRanges with invalid members: got "<unserializable>", the model says "\[/,
    );
  });
});

describe('the invalid-range law', () => {
  const oneLine = [{ start: 1, end: 1 }];
  it.each<[string, Partial<RangeAlgebra>, string]>([
    [
      'intersectRange',
      { intersectRange: (r, set) => (isLineRange(r) ? intersectRange(r, set) : oneLine) },
      'intersectRange(invalid range): got [{"start":1,"end":1}], the model says []',
    ],
    [
      'subtractRange',
      { subtractRange: (r, set) => (isLineRange(r) ? subtractRange(r, set) : oneLine) },
      'subtractRange(invalid range): got [{"start":1,"end":1}], the model says []',
    ],
    [
      'dedupeRange emit, when minCovered is left out',
      {
        dedupeRange: (r, served, ...min) =>
          min.length > 0 || isLineRange(r)
            ? dedupeRange(r, served, ...min)
            : { emit: oneLine, covered: [] },
      },
      'dedupeRange(invalid range).emit: got [{"start":1,"end":1}], the model says []',
    ],
    [
      'dedupeRange covered, when minCovered is left out',
      {
        dedupeRange: (r, served, ...min) =>
          min.length > 0 || isLineRange(r)
            ? dedupeRange(r, served, ...min)
            : { emit: [], covered: oneLine },
      },
      'dedupeRange(invalid range).covered: got [{"start":1,"end":1}], the model says []',
    ],
  ])('%s answering a line for an invalid range', (_label, impl, message) => {
    const error = caught(impl);
    expect(error.law).toBe(LAW.invalid);
    expect(cause(error)).toBe(message);
  });
});

describe('the model laws draw valid and invalid arguments', () => {
  it('coalesceRanges keeping one span more than a valid max asks', () => {
    // Only a set that merges into more than max + 1 spans shows it.
    const error = caught(
      {
        coalesceRanges: (rs, max) =>
          Number.isSafeInteger(max) && (max as number) >= 0
            ? coalesceRanges(rs, (max as number) + 1)
            : coalesceRanges(rs, max),
      },
      11,
      MIN_RUNS,
    );
    expect(error.law).toBe(LAW.coalesce);
    expect(cause(error)).toMatch(/^coalesceRanges (ranges|truncated): got /);
  });

  it('rangesCover answering wrong for every valid line', () => {
    const error = caught({
      rangesCover: (set, line) =>
        Number.isSafeInteger(line) && line >= 1 ? !rangesCover(set, line) : rangesCover(set, line),
    });
    expect(error.law).toBe(LAW.cover);
    expect(cause(error)).toMatch(/^rangesCover\((set|merged), \d+\): got (true|false)/);
  });

  it('dedupeRange asking one line more than a valid minCovered', () => {
    const error = caught(
      {
        dedupeRange: (r, served, min) =>
          dedupeRange(
            r,
            served,
            Number.isSafeInteger(min) && (min as number) >= 1 ? min! + 1 : min,
          ),
      },
      11,
      MIN_RUNS,
    );
    expect(error.law).toBe(LAW.dedupe);
    expect(cause(error)).toMatch(/^dedupeRange (emit|covered): got /);
  });

  it('dedupeRange covering nothing for a minCovered of 0, -1 or -2 (below 1 acts as 1)', () => {
    const error = caught(
      {
        dedupeRange: (r, served, min) =>
          dedupeRange(r, served, min === 0 || min === -1 || min === -2 ? Number.NaN : min),
      },
      11,
      MIN_RUNS,
    );
    expect(error.law).toBe(LAW.dedupe);
    expect(cause(error)).toMatch(/^dedupeRange (emit|covered): got /);
  });

  it('dedupeRange reading a minCovered that is no integer as 1', () => {
    const error = caught(
      { dedupeRange: (r, served, min) => dedupeRange(r, served, Number.isInteger(min) ? min : 1) },
      11,
      MIN_RUNS,
    );
    expect(error.law).toBe(LAW.dedupe);
    expect(cause(error)).toMatch(/^dedupeRange (emit|covered): got /);
  });
});

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

describe('what the checker prints of a result it cannot stringify', () => {
  const marker = '<a value that throws when read>';

  it('each member of an array, comma-separated', () => {
    const error = caught({ countLines: () => [revoked(), revoked()] as never });
    expect(cause(error)).toBe(`countLines: got [${marker},${marker}], the model says 0`);
  });

  it('an array whose length is not a number, as the marker', () => {
    const odd = new Proxy([], {
      get: (target, key) => {
        if (typeof key === 'symbol') throw new Error('hostile symbol read');
        return key === 'length' ? 'many' : Reflect.get(target, key);
      },
    });
    const error = caught({ countLines: () => odd as never });
    expect(cause(error)).toBe(`countLines: got ${marker}, the model says 0`);
  });

  it('an array whose length throws the first time only, as the marker: it is not read twice', () => {
    const throwsOnce = () => {
      let lengthReads = 0;
      return new Proxy([], {
        get: (target, key) => {
          if (typeof key === 'symbol') throw new Error('hostile symbol read');
          if (key === 'length' && ++lengthReads === 1) throw new Error('hostile length');
          return Reflect.get(target, key);
        },
      });
    };
    const error = caught({ countLines: () => throwsOnce() as never });
    expect(cause(error)).toBe(`countLines: got ${marker}, the model says 0`);
  });
});

describe('RangeAlgebraLawError', () => {
  it('prints a counterexample of 2000 chars whole, and cuts one of 2001', () => {
    // fc.stringify quotes a string: 1998 chars print as 2000.
    const whole = new RangeAlgebraLawError('a law', 'x'.repeat(1998), 1, '0', 'why');
    expect(whole.message.split('\n')[1]).toBe(`counterexample: "${'x'.repeat(1998)}"`);
    const cut = new RangeAlgebraLawError('a law', 'x'.repeat(1999), 1, '0', 'why');
    expect(cut.message.split('\n')[1]).toBe(
      `counterexample: "${'x'.repeat(1999)}… (2001 chars in all: see error.counterexample)`,
    );
    expect(cut.counterexample).toBe('x'.repeat(1999));
  });
});

describe('what checkRangeAlgebra accepts', () => {
  it('a class whose static methods are the algebra', () => {
    // biome-ignore lint/complexity/noStaticOnlyClass: a shape some implementations export
    class Algebra {
      static countLines(set: readonly LineRange[]): number {
        return countLines(set);
      }
    }
    const report = checkRangeAlgebra(Algebra, { numRuns: 3, seed: 3 });
    expect(report.laws).toContain(LAW.count);
    expect(report.skipped).not.toContain('countLines');
  });

  it('options whose seed getter throws: the seed is ignored, like a seed that is not a number', () => {
    const options = Object.defineProperty({ numRuns: 4 }, 'seed', {
      get: () => {
        throw new Error('hostile');
      },
    });
    expect(checkRangeAlgebra({ countLines }, options).runs).toBe(4 * 4 + 3);
  });

  it('a seed that is not a number is not used: each run draws its own', () => {
    const broken = { countLines: (set: readonly LineRange[]) => countLines(set) + 1 };
    const a = caught(broken, '7');
    const b = caught(broken, '7');
    expect(a.seed).not.toBe(7);
    expect(b.seed).not.toBe(a.seed);
  });
});
