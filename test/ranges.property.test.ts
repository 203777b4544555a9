/**
 * The range algebra's laws against the line-set model: once through the
 * reusable `checkRangeAlgebra` (as another implementation would run it), then
 * law by law as fast-check properties, then the check itself is shown to fail
 * on deliberately broken implementations.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  coalesceRanges,
  countLines,
  dedupeRange,
  intersectRange,
  intersectRanges,
  type LineRange,
  mergeRanges,
  rangesCover,
  subtractRange,
  subtractRanges,
} from '../src/index.js';
import {
  checkRangeAlgebra,
  coalesceModel,
  dedupeLines,
  hostileRangeArb,
  hostileRangeSetArb,
  intersectLines,
  lineRangeArb,
  linesOf,
  linesOfRange,
  mergeModel,
  RANGE_ALGEBRA_FUNCTIONS,
  type RangeAlgebra,
  RangeAlgebraLawError,
  rangeSetArb,
  runsOf,
  subtractLines,
  withJunkArb,
} from '../src/testing/index.js';
import { plain } from './_build.js';

const ours: RangeAlgebra = {
  mergeRanges,
  intersectRange,
  subtractRange,
  intersectRanges,
  subtractRanges,
  dedupeRange,
  coalesceRanges,
  rangesCover,
  countLines,
};

/** The seed every property here runs on: a failure names it, and it replays the run. */
const SEED = 1313;
/** 150 cases per law, or the global setting when a run lowers it (mutation testing). */
const RUNS = { seed: SEED, numRuns: Math.min(150, fc.readConfigureGlobal().numRuns ?? 150) };
const size = (r: LineRange) => r.end - r.start + 1;

describe('checkRangeAlgebra on this library', () => {
  it('finds every law holding for the eight functions besides rangesCover', () => {
    const { rangesCover: _left, ...eight } = ours;
    const report = checkRangeAlgebra(eight, { numRuns: 60, seed: 6 });
    expect(report.skipped).toEqual(['rangesCover']);
    expect(report.laws.length).toBe(16);
    expect(report.runs).toBeGreaterThan(60 * 14);
  });

  it('finds every law holding for all nine functions', () => {
    const report = checkRangeAlgebra(ours, { numRuns: 60, seed: 6 });
    expect(report.skipped).toEqual([]);
    expect(report.laws.length).toBe(17);
  });

  it('skips the laws of functions an implementation does not have', () => {
    const report = checkRangeAlgebra({ mergeRanges, countLines }, { numRuns: 10, seed: 1 });
    expect(report.skipped).toEqual(
      RANGE_ALGEBRA_FUNCTIONS.filter((f) => f !== 'mergeRanges' && f !== 'countLines'),
    );
    expect(report.laws.some((l) => l.startsWith('mergeRanges'))).toBe(true);
    expect(report.laws.some((l) => l.startsWith('dedupeRange'))).toBe(false);
  });

  it.each([
    ['null', null],
    ['an object with no algebra function', { merge: mergeRanges }],
  ])('rejects %s with a TypeError naming impl', (_name, impl) => {
    expect(() => checkRangeAlgebra(impl as never)).toThrow(TypeError);
    expect(() => checkRangeAlgebra(impl as never)).toThrow(/impl/);
  });

  it.each([0, -1, 1.5, Number.NaN])('rejects numRuns %s', (numRuns) => {
    expect(() => checkRangeAlgebra(ours, { numRuns })).toThrow(/numRuns/);
  });
});

describe('checkRangeAlgebra catches broken implementations', () => {
  /** Runs the check and returns the error it throws (failing the test when none). */
  const brokenBy = (impl: Partial<RangeAlgebra>): RangeAlgebraLawError => {
    try {
      checkRangeAlgebra(impl, { numRuns: 200, seed: 42 });
    } catch (e) {
      expect(e).toBeInstanceOf(RangeAlgebraLawError);
      return e as RangeAlgebraLawError;
    }
    throw new Error('checkRangeAlgebra accepted a broken implementation');
  };

  it('a merge that clamps start < 1 to 1 instead of dropping the member', () => {
    const clamp = (r: unknown): unknown => {
      try {
        return isObj(r) && typeof r.start === 'number' && r.start < 1
          ? { start: 1, end: r.end }
          : r;
      } catch {
        return r;
      }
    };
    const clamping = (rs: readonly LineRange[]) =>
      mergeRanges((Array.isArray(rs) ? [...rs] : []).map(clamp) as LineRange[]);
    const err = brokenBy({ ...ours, mergeRanges: clamping });
    expect(err.law).toMatch(/^mergeRanges agrees with the line-set model/);
    expect(err.message).toContain(err.law);
    expect(err.message).toMatch(/counterexample: /);
    expect(err.message).toMatch(/replay with \{ seed: 42/);
    expect(err.seed).toBe(42);
    // The shrunk counterexample holds a member the clamp turns valid.
    expect(JSON.stringify(err.counterexample)).toMatch(/"start":(0|-)/);
  });

  it('a merge that forgets to join adjacent spans', () => {
    const noAdjacency = (rs: readonly LineRange[]) => {
      const out: LineRange[] = [];
      for (const r of mergeRanges(rs)) {
        const split =
          r.end > r.start
            ? [
                { start: r.start, end: r.start },
                { start: r.start + 1, end: r.end },
              ]
            : [r];
        out.push(...split);
      }
      return out;
    };
    expect(brokenBy({ mergeRanges: noAdjacency }).law).toMatch(/^mergeRanges agrees/);
  });

  it('a dedupe that covers runs one line shorter than minCovered', () => {
    const lax: RangeAlgebra['dedupeRange'] = (range, served, min = 8) =>
      dedupeRange(range, served, typeof min === 'number' ? min - 1 : min);
    expect(brokenBy({ dedupeRange: lax }).law).toMatch(/^dedupeRange/);
  });

  it('a coalesce that keeps the first spans instead of the largest', () => {
    const firstOnes: RangeAlgebra['coalesceRanges'] = (rs, max = 24) => {
      const merged = mergeRanges(rs);
      const keep = Number.isSafeInteger(max) && max >= 0 ? max : 0;
      return { ranges: merged.slice(0, keep), truncated: merged.length > keep };
    };
    expect(brokenBy({ coalesceRanges: firstOnes }).law).toMatch(/^coalesceRanges/);
  });

  it('a countLines that counts overlaps twice', () => {
    const double = (rs: readonly LineRange[]) =>
      (Array.isArray(rs) ? rs : []).filter(isValid).reduce((n, r) => n + size(r), 0);
    expect(brokenBy({ countLines: double }).law).toMatch(/^countLines/);
  });

  it('a rangesCover that binary-searches an unsorted set', () => {
    const bsearch = (set: readonly LineRange[], line: number) => {
      if (!Array.isArray(set)) return false;
      let lo = 0;
      let hi = set.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        const r = set[mid];
        if (!isValid(r) || r.end < line) lo = mid + 1;
        else hi = mid;
      }
      const r = set[lo];
      return isValid(r) && r.start <= line && line <= r.end;
    };
    expect(brokenBy({ mergeRanges, rangesCover: bsearch }).law).toMatch(/^rangesCover/);
  });

  it('an algebra that throws on a hostile member', () => {
    const throwing = (rs: readonly LineRange[]) => {
      for (const r of rs) if (typeof r.start !== 'number') throw new Error('bad');
      return mergeRanges(rs);
    };
    const err = brokenBy({ mergeRanges: throwing });
    expect(err.message).toMatch(/bad|Cannot read/);
  });

  it('a merge that sorts by converting to 32-bit integers breaks on large line numbers', () => {
    const narrow = (rs: readonly LineRange[]) =>
      mergeRanges(mergeRanges(rs).map((r) => ({ start: r.start | 0 || 1, end: r.end | 0 || 1 })));
    expect(brokenBy({ mergeRanges: narrow }).law).toMatch(/large line numbers|mergeRanges agrees/);
  });

  it('a merge that returns its (already normalized) input array', () => {
    const same = (rs: readonly LineRange[]) => {
      const out = mergeRanges(rs);
      try {
        const unchanged =
          Array.isArray(rs) &&
          rs.length === out.length &&
          out.every((r, i) => rs[i]?.start === r.start && rs[i]?.end === r.end);
        return unchanged ? rs : out;
      } catch {
        return out;
      }
    };
    expect(brokenBy({ mergeRanges: same }).law).toMatch(/fresh/);
  });
});

function isObj(x: unknown): x is { start?: unknown; end?: unknown } {
  return typeof x === 'object' && x !== null;
}
function isValid(x: unknown): x is LineRange {
  return (
    isObj(x) &&
    Number.isSafeInteger(x.start) &&
    Number.isSafeInteger(x.end) &&
    (x.start as number) >= 1 &&
    (x.start as number) <= (x.end as number)
  );
}

describe(`range algebra laws, one by one (seed ${SEED})`, () => {
  it('merge is idempotent', () => {
    fc.assert(
      fc.property(hostileRangeSetArb(), (set) => {
        const once = mergeRanges(set as LineRange[]);
        expect(plain(mergeRanges(once))).toEqual(plain(once));
      }),
      RUNS,
    );
  });

  it('merge is order-independent', () => {
    fc.assert(
      fc.property(
        rangeSetArb().chain((set) =>
          fc.tuple(fc.constant(set), fc.shuffledSubarray(set, { minLength: set.length })),
        ),
        ([set, shuffled]) => {
          expect(plain(mergeRanges(shuffled))).toEqual(plain(mergeRanges(set)));
        },
      ),
      RUNS,
    );
  });

  it('merge returns the normalized runs of the lines it was given', () => {
    fc.assert(
      fc.property(hostileRangeSetArb(), (set) => {
        const out = plain(mergeRanges(set as LineRange[]));
        expect(out).toEqual(mergeModel(set));
        for (let i = 1; i < out.length; i++)
          expect(out[i]!.start).toBeGreaterThan(out[i - 1]!.end + 1);
      }),
      RUNS,
    );
  });

  it('intersectRange and subtractRange partition the range', () => {
    fc.assert(
      fc.property(hostileRangeArb(), hostileRangeSetArb(), (range, set) => {
        const inside = linesOf(intersectRange(range as LineRange, set as LineRange[]));
        const outside = linesOf(subtractRange(range as LineRange, set as LineRange[]));
        expect([...inside].filter((l) => outside.has(l))).toEqual([]);
        expect(new Set([...inside, ...outside])).toEqual(linesOfRange(range));
        expect(inside).toEqual(intersectLines(linesOfRange(range), linesOf(set)));
      }),
      RUNS,
    );
  });

  it('intersectRanges and subtractRanges partition the first set', () => {
    fc.assert(
      fc.property(hostileRangeSetArb(), hostileRangeSetArb(), (a, b) => {
        const inter = intersectRanges(a as LineRange[], b as LineRange[]);
        const diff = subtractRanges(a as LineRange[], b as LineRange[]);
        expect(plain(inter)).toEqual(runsOf(intersectLines(linesOf(a), linesOf(b))));
        expect(plain(diff)).toEqual(runsOf(subtractLines(linesOf(a), linesOf(b))));
        expect(new Set([...linesOf(inter), ...linesOf(diff)])).toEqual(linesOf(a));
      }),
      RUNS,
    );
  });

  it('dedupe: emit ∪ covered = range, disjoint, covered ⊆ served, every covered run ≥ minCovered', () => {
    fc.assert(
      fc.property(
        lineRangeArb(),
        rangeSetArb(),
        fc.integer({ min: -3, max: 30 }),
        (range, served, min) => {
          const { emit, covered } = dedupeRange(range, served, min);
          const e = linesOf(emit);
          const c = linesOf(covered);
          expect([...e].filter((l) => c.has(l))).toEqual([]);
          expect(new Set([...e, ...c])).toEqual(linesOfRange(range));
          const held = linesOf(served);
          expect([...c].filter((l) => !held.has(l))).toEqual([]);
          for (const run of covered) expect(size(run)).toBeGreaterThanOrEqual(Math.max(1, min));
          const model = dedupeLines(range, served, min);
          expect(e).toEqual(model.emit);
          expect(c).toEqual(model.covered);
        },
      ),
      RUNS,
    );
  });

  it('dedupe uses 8 as the default minCovered', () => {
    fc.assert(
      fc.property(lineRangeArb(), rangeSetArb(), (range, served) => {
        expect(dedupeRange(range, served)).toEqual(dedupeRange(range, served, 8));
      }),
      RUNS,
    );
  });

  it('coalesce keeps the largest spans and never adds a line', () => {
    fc.assert(
      fc.property(rangeSetArb({ maxLength: 30 }), fc.integer({ min: 0, max: 10 }), (set, max) => {
        const { ranges, truncated } = coalesceRanges(set, max);
        const all = linesOf(set);
        expect([...linesOf(ranges)].filter((l) => !all.has(l))).toEqual([]);
        const runs = mergeModel(set);
        expect(truncated).toBe(runs.length > max);
        expect(ranges.length).toBe(Math.min(max, runs.length));
        const keptSizes = ranges.map(size);
        const dropped = runs.filter((r) => !ranges.some((k) => k.start === r.start));
        for (const d of dropped) expect(size(d)).toBeLessThanOrEqual(Math.min(...keptSizes));
        expect(plain(ranges)).toEqual(coalesceModel(set, max).ranges);
      }),
      RUNS,
    );
  });

  it('coalesce uses 24 as the default max', () => {
    fc.assert(
      fc.property(rangeSetArb({ maxLength: 40, maxLine: 400 }), (set) => {
        expect(coalesceRanges(set)).toEqual(coalesceRanges(set, 24));
      }),
      { ...RUNS, numRuns: 50 },
    );
  });

  it('invalid members never change a result', () => {
    fc.assert(
      fc.property(
        withJunkArb(),
        lineRangeArb(),
        fc.integer({ min: 1, max: 205 }),
        ({ valid, mixed }, range, line) => {
          const m = mixed as LineRange[];
          expect(mergeRanges(m)).toEqual(mergeRanges(valid));
          expect(intersectRange(range, m)).toEqual(intersectRange(range, valid));
          expect(subtractRange(range, m)).toEqual(subtractRange(range, valid));
          expect(intersectRanges(m, m)).toEqual(intersectRanges(valid, valid));
          expect(subtractRanges(m, [range])).toEqual(subtractRanges(valid, [range]));
          expect(dedupeRange(range, m, 2)).toEqual(dedupeRange(range, valid, 2));
          expect(coalesceRanges(m, 2)).toEqual(coalesceRanges(valid, 2));
          expect(rangesCover(m, line)).toBe(rangesCover(valid, line));
          expect(countLines(m)).toBe(countLines(valid));
        },
      ),
      RUNS,
    );
  });

  it('rangesCover answers alike on a merged result and on its raw input', () => {
    fc.assert(
      fc.property(hostileRangeSetArb(), fc.integer({ min: -1, max: 205 }), (set, line) => {
        const merged = mergeRanges(set as LineRange[]);
        expect(rangesCover(merged, line)).toBe(rangesCover(set as LineRange[], line));
        expect(rangesCover(merged, line)).toBe(linesOf(set).has(line));
      }),
      RUNS,
    );
  });
});

describe(`intersect and subtract on sets that are, or nearly are, normalized (seed ${SEED})`, () => {
  /** A normalized set as a caller holds it: plain copies of a merged set's members. */
  const normalizedArb = rangeSetArb({ maxLength: 16 }).map((set) => plain(mergeRanges(set)));
  /**
   * A normalized set one edit away from normalized, so that the walk gives up
   * at any point: a member split in two touching halves, repeated, reversed,
   * or swapped with the next; or a hostile member (a valid range out of order, touching or
   * overlapping a neighbour; a disguised one; an invalid one; a throwing getter
   * or proxy) put in at any position or in place of a member; or a hole.
   */
  const nearlyNormalizedArb = fc
    .tuple(
      normalizedArb,
      hostileRangeArb(),
      fc.nat(),
      fc.constantFrom('split', 'repeat', 'reverse', 'swap', 'insert', 'replace', 'hole'),
    )
    .map(([set, member, at, how]) => {
      const out: unknown[] = [...set];
      const i = at % (out.length + 1);
      const r = set[i];
      if (r === undefined) out.push(member);
      else if (how === 'split' && r.start < r.end) {
        const cut = r.start + (at % (r.end - r.start));
        out.splice(i, 1, { start: r.start, end: cut }, { start: cut + 1, end: r.end });
      } else if (how === 'repeat') out.splice(i, 0, { ...r });
      else if (how === 'reverse' && r.start < r.end) out[i] = { start: r.end, end: r.start };
      else if (how === 'swap' && i + 1 < out.length) out.splice(i, 2, out[i + 1], r);
      else if (how === 'replace') out[i] = member;
      else if (how === 'hole') delete out[i];
      else out.splice(i, 0, member);
      return out;
    });
  const setArb = fc.oneof(normalizedArb, nearlyNormalizedArb);
  /** Offsets past the small integers V8 stores unboxed (2^30), up to the largest safe line. */
  const offsetArb = fc.constantFrom(2 ** 30 - 100, 2 ** 31, 2 ** 32 + 7, 2 ** 53 - 1 - 400);
  const shift = (set: readonly LineRange[], by: number) =>
    set.map(({ start, end }) => ({ start: start + by, end: end + by }));

  it('agree with the line-set model, in fresh, frozen lists without holes', () => {
    fc.assert(
      fc.property(setArb, setArb, (a, b) => {
        const inter = intersectRanges(a as LineRange[], b as LineRange[]);
        const diff = subtractRanges(a as LineRange[], b as LineRange[]);
        expect(plain(inter)).toEqual(runsOf(intersectLines(linesOf(a), linesOf(b))));
        expect(plain(diff)).toEqual(runsOf(subtractLines(linesOf(a), linesOf(b))));
        for (const out of [inter, diff]) {
          expect(Object.isFrozen(out)).toBe(true);
          expect(Object.keys(out)).toHaveLength(out.length);
          expect(out.some((r) => a.includes(r) || b.includes(r))).toBe(false);
        }
      }),
      { ...RUNS, numRuns: RUNS.numRuns * 4 },
    );
  });

  it('shifting two normalized sets into large line numbers shifts both results', () => {
    fc.assert(
      fc.property(normalizedArb, normalizedArb, offsetArb, (a, b, k) => {
        const [sa, sb] = [shift(a, k), shift(b, k)];
        expect(plain(intersectRanges(sa, sb))).toEqual(shift(intersectRanges(a, b), k));
        expect(plain(subtractRanges(sa, sb))).toEqual(shift(subtractRanges(a, b), k));
      }),
      RUNS,
    );
  });
});
