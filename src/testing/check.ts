/**
 * `checkRangeAlgebra`: the range algebra's laws, runnable against any
 * implementation under any test runner (or none). Each law is a fast-check
 * property comparing the implementation with the line-set model; the first law
 * that breaks throws a {@link RangeAlgebraLawError} naming the law and carrying
 * the shrunk counterexample and the seed to replay it.
 *
 * Not a benchmark and not a fuzzer: run counts are sized for a unit-test suite.
 */
import * as fc from 'fast-check';
import { lengthOf, readOr } from '../boundary/read.js';
import type { LineRange } from '../ranges/range.js';
import {
  hostileRangeArb,
  hostileRangeSetArb,
  invalidRangeArb,
  lineRangeArb,
  notASetArb,
  rangeSetArb,
  withJunkArb,
} from './arbitraries.js';
import * as model from './model.js';

/**
 * The range algebra as `span-ledger` exports it. Another implementation passes
 * an object with the same functions (any subset: the laws of missing functions
 * are skipped and listed in the report).
 */
export interface RangeAlgebra {
  /** The set's lines as a normalized set: invalid members dropped, overlaps and neighbours joined. */
  mergeRanges(ranges: readonly LineRange[]): readonly LineRange[];
  /** The lines of `range` that are also in `set`, normalized. */
  intersectRange(range: LineRange, set: readonly LineRange[]): readonly LineRange[];
  /** The lines of `range` that are not in `set`, normalized. */
  subtractRange(range: LineRange, set: readonly LineRange[]): readonly LineRange[];
  /** The lines in both sets, normalized. */
  intersectRanges(a: readonly LineRange[], b: readonly LineRange[]): readonly LineRange[];
  /** The lines of `a` that are not in `b`, normalized. */
  subtractRanges(a: readonly LineRange[], b: readonly LineRange[]): readonly LineRange[];
  /**
   * Splits `range` into the lines to send (`emit`) and the runs of at least
   * `minCovered` lines already in `served` (`covered`); together they are `range`.
   */
  dedupeRange(
    range: LineRange,
    served: readonly LineRange[],
    minCovered?: number,
  ): { readonly emit: readonly LineRange[]; readonly covered: readonly LineRange[] };
  /**
   * The merged set cut to its `max` largest spans (never a line added), and
   * whether a span had to be left out.
   */
  coalesceRanges(
    ranges: readonly LineRange[],
    max?: number,
  ): { readonly ranges: readonly LineRange[]; readonly truncated: boolean };
  /** Whether `line` is in the set. */
  rangesCover(set: readonly LineRange[], line: number): boolean;
  /** How many distinct lines the set holds. */
  countLines(set: readonly LineRange[]): number;
}

/**
 * The names of the algebra's functions, in the order their laws run.
 */
export const RANGE_ALGEBRA_FUNCTIONS: readonly (keyof RangeAlgebra)[] =
  /* @__PURE__ */ Object.freeze([
    'mergeRanges',
    'intersectRange',
    'subtractRange',
    'intersectRanges',
    'subtractRanges',
    'dedupeRange',
    'coalesceRanges',
    'rangesCover',
    'countLines',
  ]);

/**
 * Options for {@link checkRangeAlgebra}.
 */
export interface CheckRangeAlgebraOptions {
  /** Generated cases per law (default 100; the large-set law runs a tenth of it; every law at least 3). */
  readonly numRuns?: number;
  /** A fixed seed, to replay a failure or make a run reproducible. */
  readonly seed?: number;
}

/**
 * What {@link checkRangeAlgebra} checked.
 */
export interface RangeAlgebraReport {
  /** The laws that held, in the order they ran. */
  readonly laws: readonly string[];
  /** Functions the implementation does not have; their laws were skipped. */
  readonly skipped: readonly (keyof RangeAlgebra)[];
  /** Cases generated over all laws. */
  readonly runs: number;
}

/**
 * Thrown by {@link checkRangeAlgebra} on the first broken law.
 */
export class RangeAlgebraLawError extends Error {
  /** The name of the law that broke. */
  readonly law: string;
  /** The shrunk arguments that break it. */
  readonly counterexample: unknown;
  /** Seed and path that replay the failure (`{ seed, path }` for fast-check). */
  readonly seed: number;
  readonly path: string;

  constructor(law: string, counterexample: unknown, seed: number, path: string, cause: string) {
    super(
      `range algebra law broken: ${law}\n` +
        `counterexample: ${clip(printable(counterexample))}\n` +
        `${cause}\n` +
        `replay with { seed: ${seed}, path: ${JSON.stringify(path)} }`,
    );
    this.name = 'RangeAlgebraLawError';
    this.law = law;
    this.counterexample = counterexample;
    this.seed = seed;
    this.path = path;
  }
}

/** Longest counterexample a message prints in full; `counterexample` always holds all of it. */
const MAX_SHOWN = 2000;

/** `text`, cut to {@link MAX_SHOWN} chars with a note saying where the rest is. */
function clip(text: string): string {
  if (text.length <= MAX_SHOWN) return text;
  return `${text.slice(0, MAX_SHOWN)}… (${text.length} chars in all: see error.counterexample)`;
}

/** `fc.stringify`, or a marker when the value throws while being printed (a hostile proxy). */
function printable(x: unknown): string {
  return (
    readOr(() => fc.stringify(x), undefined) ??
    // An array some member of which throws when printed: member by member.
    (lengthOf(x) === undefined
      ? undefined
      : readOr(() => `[${(x as unknown[]).map(printable).join(',')}]`, undefined)) ??
    '<a value that throws when read>'
  );
}

/** Fails the current case with a readable message. */
function fail(message: string): never {
  throw new Error(message);
}

/** `x` as plain `{ start, end }` pairs, or a failure when it is not an array of ranges. */
function plain(x: unknown, what: string): LineRange[] {
  if (!Array.isArray(x)) fail(`${what} returned ${printable(x)}, not an array`);
  return x.map((r: unknown) => {
    if (typeof r !== 'object' || r === null) fail(`${what} returned a member ${printable(r)}`);
    const { start, end } = r as LineRange;
    return { start, end };
  });
}

/** Fails unless `actual` and `expected` list the same ranges in the same order. */
function same(actual: readonly LineRange[], expected: readonly LineRange[], what: string): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) fail(`${what}: got ${a}, the model says ${e}`);
}

/** Fails unless the two values are identical (booleans, counts). */
function equal(actual: unknown, expected: unknown, what: string): void {
  if (!Object.is(actual, expected)) {
    fail(`${what}: got ${printable(actual)}, the model says ${printable(expected)}`);
  }
}

/** The lines of a result that must already be plain ranges. */
function lines(ranges: readonly LineRange[]): Set<number> {
  return model.linesOf(ranges);
}

function shift(ranges: readonly LineRange[], by: number): LineRange[] {
  return ranges.map((r) => ({ start: r.start + by, end: r.end + by }));
}

function disjoint(a: ReadonlySet<number>, b: ReadonlySet<number>): boolean {
  for (const line of a) if (b.has(line)) return false;
  return true;
}

function setEqual(a: ReadonlySet<number>, b: ReadonlySet<number>): boolean {
  return a.size === b.size && [...a].every((line) => b.has(line));
}

/** A JSON snapshot of a value that may hold hostile members (those read as a marker). */
function snapshot(x: unknown): string {
  return readOr(
    () => JSON.stringify(x, (_k, v: unknown) => (typeof v === 'number' ? String(v) : v)) ?? '',
    '<unserializable>',
  );
}

/**
 * Where `minCovered` comes from in the dedupe model law: half the time the
 * length of one run of `range ∩ served`, plus 0 or 1 (the two values on either
 * side of where the size gate flips, which a bound off by one line gets wrong
 * and a random number rarely hits); otherwise any integer, or one of the
 * values the contract names (below 1, not an integer, not a number).
 */
type MinChoice = { readonly drawn: unknown } | { readonly run: number; readonly plus: number };
const minChoiceArb: fc.Arbitrary<MinChoice> = /* @__PURE__ */ fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({ run: fc.nat(), plus: fc.integer({ min: 0, max: 1 }) }),
  },
  { weight: 1, arbitrary: fc.integer({ min: -2, max: 24 }).map((drawn) => ({ drawn })) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom<unknown>(
        0,
        -1,
        -2,
        -0,
        undefined,
        Number.NaN,
        Number.POSITIVE_INFINITY,
        Number.NEGATIVE_INFINITY,
        0.5,
        2.5,
        '8',
        null,
      )
      .map((drawn) => ({ drawn })),
  },
);

/** The `minCovered` a {@link MinChoice} stands for, given the range and the served set. */
function chooseMin(choice: MinChoice, range: unknown, served: readonly unknown[]): unknown {
  if ('drawn' in choice) return choice.drawn;
  const runs = model.runsOf(model.intersectLines(model.linesOfRange(range), model.linesOf(served)));
  if (runs.length === 0) return 8;
  const run = runs[choice.run % runs.length]!;
  return run.end - run.start + 1 + choice.plus;
}

/** `max` values for coalescing, valid and not. */
const maxArb: fc.Arbitrary<unknown> = /* @__PURE__ */ fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 8 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(
      undefined,
      -1,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      1.5,
      2 ** 53,
      '3',
      null,
    ),
  },
);

/** Lines to probe membership with, valid and not. */
const probeArb: fc.Arbitrary<unknown> = /* @__PURE__ */ fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: -2, max: 205 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(
      Number.NaN,
      Number.POSITIVE_INFINITY,
      -0,
      1.5,
      2 ** 53,
      '5',
      null,
    ),
  },
);

/**
 * Sets of short ranges (1 to 6 lines) spread over 200 lines: they merge into
 * many spans of different sizes, so a cut to `max` spans has a choice to make.
 */
const shortRangeSetArb: fc.Arbitrary<LineRange[]> = /* @__PURE__ */ fc.array(
  fc
    .tuple(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 0, max: 5 }))
    .map(([start, extra]) => ({ start, end: start + extra })),
  { maxLength: 20 },
);

/** Offsets that move small ranges into large line numbers (still safe integers). */
const offsetArb = /* @__PURE__ */ fc.constantFrom(
  2 ** 31 - 7,
  2 ** 32 - 50,
  2 ** 40,
  2 ** 53 - 1 - 400,
);

/** What one law's run reports, whatever the types of its generated arguments. */
type LawRun =
  | { readonly failed: false; readonly numRuns: number }
  | {
      readonly failed: true;
      readonly numRuns: number;
      readonly seed: number;
      readonly counterexample: unknown;
      readonly counterexamplePath: string;
      readonly errorInstance?: unknown;
      readonly error?: unknown;
    };

interface Law {
  readonly name: string;
  readonly needs: readonly (keyof RangeAlgebra)[];
  /** Fraction of `numRuns` this law runs (default 1). */
  readonly share?: number;
  readonly run: (impl: RangeAlgebra, params: { numRuns: number; seed?: number }) => LawRun;
}

/** A law from a property builder; the builder's argument types stay local to it. */
function law<Ts extends unknown[]>(
  name: string,
  needs: readonly (keyof RangeAlgebra)[],
  property: (impl: RangeAlgebra) => fc.IProperty<Ts>,
  share?: number,
): Law {
  const run = (impl: RangeAlgebra, params: { numRuns: number; seed?: number }): LawRun =>
    fc.check(property(impl), params) as unknown as LawRun;
  return share === undefined ? { name, needs, run } : { name, needs, run, share };
}

/** Calls a two-argument `(range, set)` function, or a three-argument one, as the law needs. */
type Call = (...args: unknown[]) => unknown;
const call = (f: unknown, ...args: unknown[]): unknown => (f as Call)(...args);

/** The laws, in the order they run: agreement with the model first, structure after. */
const LAWS: readonly Law[] = [
  law(
    'mergeRanges agrees with the line-set model (hostile members dropped, never clamped)',
    ['mergeRanges'],
    (impl) =>
      fc.property(hostileRangeSetArb(), (set) => {
        same(
          plain(call(impl.mergeRanges, set), 'mergeRanges'),
          model.mergeModel(set),
          'mergeRanges',
        );
      }),
  ),
  law('mergeRanges is idempotent', ['mergeRanges'], (impl) =>
    fc.property(rangeSetArb(), (set) => {
      const once = plain(impl.mergeRanges(set), 'mergeRanges');
      same(plain(impl.mergeRanges(once), 'mergeRanges'), once, 'mergeRanges(mergeRanges(x))');
    }),
  ),
  law('mergeRanges is order-independent', ['mergeRanges'], (impl) =>
    fc.property(fc.array(fc.tuple(lineRangeArb(), fc.nat()), { maxLength: 12 }), (keyed) => {
      const set = keyed.map(([r]) => r);
      const shuffled = [...keyed].sort((a, b) => a[1] - b[1]).map(([r]) => r);
      same(
        plain(impl.mergeRanges(shuffled), 'mergeRanges'),
        plain(impl.mergeRanges(set), 'mergeRanges'),
        'mergeRanges of a permutation',
      );
    }),
  ),
  law('mergeRanges never mutates its input and returns fresh objects', ['mergeRanges'], (impl) =>
    fc.property(rangeSetArb(), (set) => {
      const before = snapshot(set);
      const out = impl.mergeRanges(set);
      equal(snapshot(set), before, 'the input after mergeRanges');
      if ((out as unknown) === set) fail('mergeRanges returned its input array');
      for (const r of out) if (set.includes(r)) fail('mergeRanges returned an input member');
    }),
  ),
  law(
    'intersectRange and subtractRange agree with the line-set model',
    ['intersectRange', 'subtractRange'],
    (impl) =>
      fc.property(hostileRangeArb(), hostileRangeSetArb(), (range, set) => {
        const within = model.linesOfRange(range);
        const held = model.linesOf(set);
        same(
          plain(call(impl.intersectRange, range, set), 'intersectRange'),
          model.runsOf(model.intersectLines(within, held)),
          'intersectRange',
        );
        same(
          plain(call(impl.subtractRange, range, set), 'subtractRange'),
          model.runsOf(model.subtractLines(within, held)),
          'subtractRange',
        );
      }),
  ),
  law(
    'intersectRange and subtractRange partition the range',
    ['intersectRange', 'subtractRange'],
    (impl) =>
      fc.property(lineRangeArb(), rangeSetArb(), (range, set) => {
        const inside = lines(plain(impl.intersectRange(range, set), 'intersectRange'));
        const outside = lines(plain(impl.subtractRange(range, set), 'subtractRange'));
        if (!disjoint(inside, outside)) fail('intersectRange and subtractRange share a line');
        if (!setEqual(new Set([...inside, ...outside]), model.linesOfRange(range))) {
          fail('intersectRange ∪ subtractRange is not the range');
        }
      }),
  ),
  law(
    'intersectRanges and subtractRanges agree with the model and partition the first set',
    ['intersectRanges', 'subtractRanges'],
    (impl) =>
      fc.property(hostileRangeSetArb(), hostileRangeSetArb(), (a, b) => {
        const la = model.linesOf(a);
        const lb = model.linesOf(b);
        const inter = plain(call(impl.intersectRanges, a, b), 'intersectRanges');
        const diff = plain(call(impl.subtractRanges, a, b), 'subtractRanges');
        same(inter, model.runsOf(model.intersectLines(la, lb)), 'intersectRanges');
        same(diff, model.runsOf(model.subtractLines(la, lb)), 'subtractRanges');
        same(
          plain(call(impl.intersectRanges, b, a), 'intersectRanges'),
          inter,
          'intersectRanges(b, a)',
        );
      }),
  ),
  law('dedupeRange agrees with the line-set model', ['dedupeRange'], (impl) =>
    fc.property(hostileRangeArb(), hostileRangeSetArb(), minChoiceArb, (range, served, choice) => {
      const min = chooseMin(choice, range, served);
      const out = call(impl.dedupeRange, range, served, min) as {
        emit: unknown;
        covered: unknown;
      };
      const expected = model.dedupeLines(range, served, min);
      same(plain(out.emit, 'dedupeRange emit'), model.runsOf(expected.emit), 'dedupeRange emit');
      same(
        plain(out.covered, 'dedupeRange covered'),
        model.runsOf(expected.covered),
        'dedupeRange covered',
      );
    }),
  ),
  law(
    'dedupeRange: emit ∪ covered = range, disjoint, covered runs ⊆ served and ≥ minCovered lines',
    ['dedupeRange'],
    (impl) =>
      fc.property(
        lineRangeArb(),
        rangeSetArb(),
        fc.integer({ min: 1, max: 24 }),
        (range, served, min) => {
          const out = impl.dedupeRange(range, served, min);
          const emit = lines(plain(out.emit, 'dedupeRange emit'));
          const coveredRuns = plain(out.covered, 'dedupeRange covered');
          const covered = lines(coveredRuns);
          if (!disjoint(emit, covered)) fail('emit and covered share a line');
          if (!setEqual(new Set([...emit, ...covered]), model.linesOfRange(range))) {
            fail('emit ∪ covered is not the range');
          }
          const held = model.linesOf(served);
          for (const line of covered)
            if (!held.has(line)) fail(`covered line ${line} was never served`);
          for (const run of coveredRuns) {
            if (run.end - run.start + 1 < min)
              fail(`covered run ${printable(run)} is under ${min} lines`);
          }
        },
      ),
  ),
  law('coalesceRanges agrees with the line-set model', ['coalesceRanges'], (impl) =>
    fc.property(hostileRangeSetArb(), maxArb, (set, max) => {
      const out = call(impl.coalesceRanges, set, max) as { ranges: unknown; truncated: unknown };
      const expected = model.coalesceModel(set, max);
      same(plain(out.ranges, 'coalesceRanges'), expected.ranges, 'coalesceRanges ranges');
      equal(out.truncated, expected.truncated, 'coalesceRanges truncated');
    }),
  ),
  law('coalesceRanges never adds a line and keeps the largest spans', ['coalesceRanges'], (impl) =>
    fc.property(shortRangeSetArb, fc.integer({ min: 0, max: 8 }), (set, max) => {
      const kept = plain(impl.coalesceRanges(set, max).ranges, 'coalesceRanges');
      const all = model.linesOf(set);
      for (const line of lines(kept))
        if (!all.has(line)) fail(`coalesceRanges invented line ${line}`);
      if (kept.length > max) fail(`coalesceRanges kept ${kept.length} spans, more than ${max}`);
      const size = (r: LineRange): number => r.end - r.start + 1;
      const smallest = Math.min(...kept.map(size));
      const keptStarts = new Set(kept.map((r) => r.start));
      for (const run of model.runsOf(all)) {
        if (!keptStarts.has(run.start) && size(run) > smallest) {
          fail(`coalesceRanges dropped ${printable(run)} but kept a smaller span`);
        }
      }
    }),
  ),
  law(
    'rangesCover agrees with the line-set model, on raw sets and on merged results',
    ['rangesCover'],
    (impl) =>
      fc.property(hostileRangeSetArb(), fc.array(probeArb, { maxLength: 8 }), (set, probes) => {
        const merged =
          typeof impl.mergeRanges === 'function'
            ? impl.mergeRanges(set as LineRange[])
            : model.mergeModel(set);
        for (const line of probes) {
          equal(
            call(impl.rangesCover, set, line),
            model.coversLineModel(set, line),
            `rangesCover(set, ${String(line)})`,
          );
          equal(
            call(impl.rangesCover, merged, line),
            model.coversLineModel(set, line),
            `rangesCover(merged, ${String(line)})`,
          );
        }
      }),
  ),
  law('countLines agrees with the line-set model', ['countLines'], (impl) =>
    fc.property(hostileRangeSetArb(), (set) => {
      equal(call(impl.countLines, set), model.countLinesModel(set), 'countLines');
    }),
  ),
  law('invalid members never change a result', [], (impl) =>
    fc.property(withJunkArb(), withJunkArb(), lineRangeArb(), (x, y, range) => {
      const v = x.valid;
      const m = x.mixed as LineRange[];
      const sv = y.valid;
      const sm = y.mixed as LineRange[];
      const check = (name: keyof RangeAlgebra, f: (g: Call) => unknown): void => {
        const g = impl[name] as unknown as Call | undefined;
        if (typeof g !== 'function') return;
        const a = snapshot(
          f((...args) => g(...args.map((arg) => (arg === m ? v : arg === sm ? sv : arg)))),
        );
        equal(snapshot(f(g)), a, `${name} with invalid members`);
      };
      check('mergeRanges', (g) => g(m));
      check('intersectRange', (g) => g(range, m));
      check('subtractRange', (g) => g(range, m));
      check('intersectRanges', (g) => g(m, sm));
      check('subtractRanges', (g) => g(m, sm));
      check('dedupeRange', (g) => g(range, m, 3));
      check('coalesceRanges', (g) => g(m, 3));
      check('rangesCover', (g) => [range.start, range.end].map((line) => g(m, line)));
      check('countLines', (g) => g(m));
    }),
  ),
  law('an invalid range or a non-array set gives empty results, never a throw', [], (impl) =>
    fc.property(invalidRangeArb(), notASetArb(), rangeSetArb(), (bad, notSet, set) => {
      const empty = (x: unknown, what: string): void => same(plain(x, what), [], what);
      const fns = impl as Partial<Record<keyof RangeAlgebra, Call>>;
      if (fns.mergeRanges) empty(fns.mergeRanges(notSet), 'mergeRanges(non-array)');
      if (fns.intersectRange) empty(fns.intersectRange(bad, set), 'intersectRange(invalid range)');
      if (fns.subtractRange) empty(fns.subtractRange(bad, set), 'subtractRange(invalid range)');
      if (fns.intersectRanges)
        empty(fns.intersectRanges(notSet, set), 'intersectRanges(non-array, b)');
      if (fns.subtractRanges)
        empty(fns.subtractRanges(notSet, set), 'subtractRanges(non-array, b)');
      if (fns.subtractRanges)
        same(
          plain(fns.subtractRanges(set, notSet), 'subtractRanges'),
          model.mergeModel(set),
          'subtractRanges(a, non-array)',
        );
      if (fns.dedupeRange) {
        const out = fns.dedupeRange(bad, set) as { emit: unknown; covered: unknown };
        empty(out.emit, 'dedupeRange(invalid range).emit');
        empty(out.covered, 'dedupeRange(invalid range).covered');
      }
      if (fns.coalesceRanges) {
        empty(
          (fns.coalesceRanges(notSet) as { ranges: unknown }).ranges,
          'coalesceRanges(non-array)',
        );
      }
      if (fns.rangesCover) equal(fns.rangesCover(notSet, 1), false, 'rangesCover(non-array, 1)');
      if (fns.countLines) equal(fns.countLines(notSet), 0, 'countLines(non-array)');
    }),
  ),
  law('large line numbers: shifting every range shifts every result', [], (impl) =>
    fc.property(rangeSetArb(), rangeSetArb(), lineRangeArb(), offsetArb, (a, b, range, k) => {
      const fns = impl as Partial<Record<keyof RangeAlgebra, Call>>;
      const sa = shift(a, k);
      const sb = shift(b, k);
      const [sr] = shift([range], k) as [LineRange];
      const la = model.linesOf(a);
      const lb = model.linesOf(b);
      const lr = model.linesOfRange(range);
      const at = (x: unknown, what: string, lines: ReadonlySet<number>): void =>
        same(plain(x, what), shift(model.runsOf(lines), k), what);
      if (fns.mergeRanges) at(fns.mergeRanges(sa), 'mergeRanges', la);
      if (fns.intersectRange)
        at(fns.intersectRange(sr, sb), 'intersectRange', model.intersectLines(lr, lb));
      if (fns.subtractRange)
        at(fns.subtractRange(sr, sb), 'subtractRange', model.subtractLines(lr, lb));
      if (fns.intersectRanges)
        at(fns.intersectRanges(sa, sb), 'intersectRanges', model.intersectLines(la, lb));
      if (fns.subtractRanges)
        at(fns.subtractRanges(sa, sb), 'subtractRanges', model.subtractLines(la, lb));
      if (fns.dedupeRange) {
        const out = fns.dedupeRange(sr, sb, 4) as { emit: unknown; covered: unknown };
        const expected = model.dedupeLines(range, b, 4);
        at(out.emit, 'dedupeRange emit', expected.emit);
        at(out.covered, 'dedupeRange covered', expected.covered);
      }
      if (fns.coalesceRanges) {
        const out = fns.coalesceRanges(sa, 3) as { ranges: unknown };
        same(
          plain(out.ranges, 'coalesceRanges'),
          shift(model.coalesceModel(a, 3).ranges, k),
          'coalesceRanges',
        );
      }
      if (fns.rangesCover) {
        for (const line of [range.start, range.end + 1]) {
          equal(
            fns.rangesCover(sa, line + k),
            la.has(line),
            `rangesCover(shifted, ${line} + ${k})`,
          );
        }
      }
      if (fns.countLines) equal(fns.countLines(sa), la.size, 'countLines');
    }),
  ),
  law(
    'large unsorted sets (thousands of members) agree with the model',
    [],
    (impl) =>
      fc.property(
        // Not shrunk: each step of shrinking thousands of members would rerun the
        // model on all of them, for minutes. The counterexample is the set as drawn.
        fc.noShrink(
          fc.array(
            fc
              .tuple(fc.integer({ min: 1, max: 6000 }), fc.integer({ min: 0, max: 4 }))
              .map(([s, len]) => ({
                start: s,
                end: s + len,
              })),
            { minLength: 2048, maxLength: 3000 },
          ),
        ),
        fc.constantFrom(0, 2 ** 32),
        (set, k) => {
          const fns = impl as Partial<Record<keyof RangeAlgebra, Call>>;
          const shifted = shift(set, k);
          const expected = shift(model.mergeModel(set), k);
          if (fns.mergeRanges)
            same(plain(fns.mergeRanges(shifted), 'mergeRanges'), expected, 'mergeRanges');
          if (fns.countLines)
            equal(fns.countLines(shifted), model.countLinesModel(set), 'countLines');
          if (fns.subtractRanges) {
            same(
              plain(fns.subtractRanges(shifted, shifted), 'subtractRanges'),
              [],
              'subtractRanges(x, x)',
            );
          }
        },
      ),
    0.1,
  ),
];

/**
 * Checks an implementation of the range algebra against the line-set model.
 * Runs every law whose functions `impl` has, on valid and hostile input, and
 * throws a {@link RangeAlgebraLawError} (law name, shrunk counterexample, seed)
 * on the first one that breaks. Works under any test runner: it only throws.
 *
 * @throws {TypeError} when `impl` has none of the algebra's functions (a class with them as
 *   static methods qualifies), or `options.numRuns` is not a positive integer.
 * @throws {RangeAlgebraLawError} when a law breaks.
 * @example
 * ```ts
 * import { countLines, mergeRanges } from 'span-ledger';
 *
 * // In a test of your own: pass your implementation (here, span-ledger's).
 * const report = checkRangeAlgebra({ mergeRanges, countLines }, { numRuns: 20 });
 * report.skipped.includes('dedupeRange'); // true: its laws need dedupeRange
 * // A merge that keeps touching spans apart breaks a law:
 * const apart = (set: readonly LineRange[]) => [...set].sort((a, b) => a.start - b.start);
 * checkRangeAlgebra({ mergeRanges: apart }, { numRuns: 20 }); // throws RangeAlgebraLawError
 * ```
 */
export function checkRangeAlgebra(
  impl: Partial<RangeAlgebra>,
  options: CheckRangeAlgebraOptions = {},
): RangeAlgebraReport {
  // Any value whose property is a function: a module, an object, a class with
  // static methods. Reading a property of null or undefined throws, as may a
  // getter or a proxy trap: then it is no function.
  const has = RANGE_ALGEBRA_FUNCTIONS.filter(
    (name) =>
      typeof readOr(() => (impl as Record<string, unknown>)[name], undefined) === 'function',
  );
  if (has.length === 0) {
    throw new TypeError(
      `checkRangeAlgebra(impl): impl has none of ${RANGE_ALGEBRA_FUNCTIONS.join(', ')}`,
    );
  }
  // A throwing getter is no number: a run count is then rejected below, a
  // seed ignored like any seed that is not a number.
  const numRuns = readOr(() => options.numRuns ?? 100, undefined);
  const seed = readOr(() => options.seed, undefined);
  if (!Number.isSafeInteger(numRuns) || (numRuns as number) < 1) {
    throw new TypeError(
      'checkRangeAlgebra(impl, options): options.numRuns must be a positive integer',
    );
  }
  const full = impl as RangeAlgebra;
  const laws: string[] = [];
  let runs = 0;
  for (const law of LAWS) {
    if (!law.needs.every((name) => has.includes(name))) continue;
    const lawRuns = Math.max(3, Math.round((numRuns as number) * (law.share ?? 1)));
    const params = typeof seed === 'number' ? { numRuns: lawRuns, seed } : { numRuns: lawRuns };
    const details = law.run(full, params);
    if (details.failed) {
      const thrown = details.errorInstance ?? details.error;
      const cause = thrown instanceof Error ? thrown.message : String(thrown);
      throw new RangeAlgebraLawError(
        law.name,
        details.counterexample,
        details.seed,
        details.counterexamplePath,
        cause,
      );
    }
    runs += details.numRuns;
    laws.push(law.name);
  }
  return {
    laws,
    skipped: RANGE_ALGEBRA_FUNCTIONS.filter((name) => !has.includes(name)),
    runs,
  };
}
