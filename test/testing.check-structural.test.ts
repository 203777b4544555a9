import { describe, expect, it } from 'vitest';
import {
  coalesceRanges,
  countLines,
  dedupeRange,
  intersectRange,
  isLineRange,
  type LineRange,
  mergeRanges,
  subtractRange,
} from '../src/index.js';
import {
  checkRangeAlgebra,
  linesOf,
  type RangeAlgebra,
  RangeAlgebraLawError,
} from '../src/testing/index.js';

const RUNS = 12;

/** `good` for the first `runs` calls, `bad` after. */
function warm<F extends (...args: never[]) => unknown>(good: F, bad: F, runs = RUNS): F {
  let calls = 0;
  return ((...args: never[]) => (++calls > runs ? bad(...args) : good(...args))) as F;
}

/** The law checkRangeAlgebra reports broken (failing the test when none is). */
function brokenLaw(impl: Partial<RangeAlgebra>, runs = RUNS): RangeAlgebraLawError {
  try {
    checkRangeAlgebra(impl, { numRuns: runs, seed: 7 });
  } catch (e) {
    expect(e).toBeInstanceOf(RangeAlgebraLawError);
    return e as RangeAlgebraLawError;
  }
  throw new Error('checkRangeAlgebra accepted a broken implementation');
}

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

describe('structural laws catch what the model laws let through', () => {
  it('mergeRanges handing back an input member', () => {
    const reuse = (rs: readonly LineRange[]): LineRange[] => {
      const merged = mergeRanges(rs);
      try {
        return merged.map(
          (m) => rs.find((r) => r.start === m.start && r.end === m.end && isLineRange(r)) ?? m,
        );
      } catch {
        return merged;
      }
    };
    expect(brokenLaw({ mergeRanges: reuse }).law).toBe(
      'mergeRanges never mutates its input and returns fresh objects',
    );
  });

  it('intersectRange returning the whole range: the two share a line', () => {
    const err = brokenLaw({
      intersectRange: warm(intersectRange, (range) => [{ start: range.start, end: range.end }]),
      subtractRange,
    });
    expect(err.law).toBe('intersectRange and subtractRange partition the range');
    expect(err.message).toMatch(/share a line/);
  });

  it('intersectRange returning nothing: the two miss part of the range', () => {
    const err = brokenLaw({ intersectRange: warm(intersectRange, () => []), subtractRange });
    expect(err.law).toBe('intersectRange and subtractRange partition the range');
    expect(err.message).toMatch(/is not the range/);
  });

  const dedupeLaw =
    'dedupeRange: emit ∪ covered = range, disjoint, covered runs ⊆ served and ≥ minCovered lines';

  it.each([
    [
      'emit holding the covered lines too',
      (r: LineRange, s: readonly LineRange[], m?: number) => ({
        emit: [{ start: r.start, end: r.end }],
        covered: dedupeRange(r, s, m).covered,
      }),
      /share a line/,
    ],
    [
      'emit left empty',
      (r: LineRange, s: readonly LineRange[], m?: number) => ({
        emit: [],
        covered: dedupeRange(r, s, m).covered,
      }),
      /is not the range/,
    ],
    [
      'the whole range covered',
      (r: LineRange) => ({ emit: [], covered: [{ start: r.start, end: r.end }] }),
      /was never served/,
    ],
  ])('dedupeRange with %s', (_label, bad, message) => {
    const err = brokenLaw({ dedupeRange: warm(dedupeRange, bad) });
    expect(err.law).toBe(dedupeLaw);
    expect(err.message).toMatch(message);
  });

  const coalesceLaw = 'coalesceRanges never adds a line and keeps the largest spans';

  it.each([
    [
      'an invented span',
      (rs: readonly LineRange[], max?: number) => {
        const out = coalesceRanges(rs, max);
        return { ranges: [...out.ranges, { start: 900, end: 900 }], truncated: out.truncated };
      },
      /invented line 900/,
    ],
    [
      'no cut at all',
      (rs: readonly LineRange[]) => ({ ranges: mergeRanges(rs), truncated: true }),
      /more than/,
    ],
    [
      'the smallest spans kept',
      (rs: readonly LineRange[], max = 24) => {
        const all = mergeRanges(rs);
        const size = (r: LineRange) => r.end - r.start + 1;
        const kept = [...all]
          .sort((a, b) => size(a) - size(b))
          .slice(0, max)
          .sort((a, b) => a.start - b.start);
        return { ranges: kept, truncated: kept.length < all.length };
      },
      /dropped .* but kept a smaller span/,
    ],
  ])('coalesceRanges with %s', (_label, bad, message) => {
    const err = brokenLaw({ coalesceRanges: warm(coalesceRanges, bad) });
    expect(err.law).toBe(coalesceLaw);
    expect(err.message).toMatch(message);
  });

  it('a function returning undefined on junk is caught by the junk law', () => {
    const err = brokenLaw({ countLines: warm(countLines, () => undefined as never) });
    expect(err.law).toBe('an invalid range or a non-array set gives empty results, never a throw');
    expect(err.message).toMatch(/got undefined, the model says 0/);
  });
});

describe('what the checker prints', () => {
  it.each([
    ['null', () => null, /mergeRanges returned null, not an array/],
    ['a number member', () => [5], /mergeRanges returned a member 5/],
  ])('a mergeRanges returning %s', (_label, result, message) => {
    const err = brokenLaw({ mergeRanges: result as never });
    expect(err.law).toMatch(/^mergeRanges agrees/);
    expect(err.message).toMatch(message);
  });

  it.each([
    ['a revoked proxy', () => revoked(), /got <a value that throws when read>/],
    ['an array holding one', () => [revoked()], /got \[<a value that throws when read>\]/],
    [
      'an array whose length throws',
      () =>
        new Proxy([], {
          get: (t, k) => {
            if (k === 'length') throw new Error('hostile length');
            return Reflect.get(t, k);
          },
        }),
      /got <a value that throws when read>/,
    ],
  ])('a countLines returning %s is named without throwing', (_label, result, message) => {
    const err = brokenLaw({ countLines: result as never });
    expect(err.law).toBe('countLines agrees with the line-set model');
    expect(err.message).toMatch(message);
  });

  it.each([
    ['a string', 'not today', /^not today$/m],
    ['null', null, /^undefined$/m],
  ])('a function throwing %s: the cause is printed as a string', (_label, thrown, cause) => {
    const err = brokenLaw({
      countLines: () => {
        throw thrown;
      },
    });
    expect(err.message).toMatch(cause);
  });

  it('results that cannot be serialized do not stop the check', () => {
    const cyclic = (rs: readonly LineRange[]) =>
      mergeRanges(rs).map((r) => {
        const o: Record<string, unknown> = { ...r };
        o.self = o;
        return o as unknown as LineRange;
      });
    const report = checkRangeAlgebra({ mergeRanges: cyclic }, { numRuns: RUNS, seed: 7 });
    expect(report.laws).toContain('invalid members never change a result');
  });

  it('rangesCover alone is checked on raw sets (no mergeRanges to merge with)', () => {
    const report = checkRangeAlgebra(
      { rangesCover: (set, line) => linesOf(set).has(line) },
      { numRuns: RUNS, seed: 7 },
    );
    expect(report.laws).toContain(
      'rangesCover agrees with the line-set model, on raw sets and on merged results',
    );
  });
});
