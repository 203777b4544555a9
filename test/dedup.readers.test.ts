/**
 * The small readers of the dedup layer, with exact expectations: how
 * threshold overrides are read, how the environment switch is read, and the
 * pointer sentence when its parts are missing or junk.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readThresholds as resolveThresholds } from '../src/dedup/read-input.js';
import { DEDUP_THRESHOLDS, dedupEnabledFromEnv, formatPointer } from '../src/index.js';

describe('resolveThresholds', () => {
  it.each([null, undefined, 'x', 8])('answers the defaults themselves for %s', (t) => {
    expect(resolveThresholds(t as never)).toBe(DEDUP_THRESHOLDS);
  });

  it('keeps each default where the override is not a number', () => {
    const t = resolveThresholds({
      minCoveredLines: Number.NaN,
      minDeltaChars: '20' as never,
      maxSpansInPointer: Number.NEGATIVE_INFINITY,
      maxSymbolsInPointer: null as never,
    });
    expect(t).toEqual(DEDUP_THRESHOLDS);
    expect(t).not.toBe(DEDUP_THRESHOLDS);
  });

  it('rounds down, raises to each minimum, and lets +Infinity through', () => {
    expect(
      resolveThresholds({
        minCoveredLines: 3.9,
        minDeltaChars: Number.POSITIVE_INFINITY,
        maxSpansInPointer: -5,
        maxSymbolsInPointer: 2,
      }),
    ).toEqual({
      minCoveredLines: 3,
      minDeltaChars: Number.POSITIVE_INFINITY,
      maxSpansInPointer: 0,
      maxSymbolsInPointer: 2,
    });
    expect(resolveThresholds({ minCoveredLines: 0 }).minCoveredLines).toBe(1);
    expect(resolveThresholds({ minCoveredLines: 20 }).minCoveredLines).toBe(20);
  });

  it('keeps the default of a field whose getter throws', () => {
    const hostile = Object.defineProperty({}, 'minDeltaChars', {
      get: () => {
        throw new Error('hostile');
      },
    });
    expect(resolveThresholds(hostile)).toEqual(DEDUP_THRESHOLDS);
  });
});

describe('dedupEnabledFromEnv', () => {
  const saved = process.env.SPAN_LEDGER_DEDUP;
  afterEach(() => {
    if (saved === undefined) delete process.env.SPAN_LEDGER_DEDUP;
    else process.env.SPAN_LEDGER_DEDUP = saved;
  });

  it.each(['0', 'false', 'off', 'no', ' OFF ', 'No'])('%j switches dedup off', (value) => {
    expect(dedupEnabledFromEnv({ SPAN_LEDGER_DEDUP: value })).toBe(false);
  });

  it.each(['1', 'true', 'on', '', 'disable'])('%j leaves it on', (value) => {
    expect(dedupEnabledFromEnv({ SPAN_LEDGER_DEDUP: value })).toBe(true);
  });

  it('leaves it on when the variable is missing or not a string', () => {
    expect(dedupEnabledFromEnv({})).toBe(true);
    expect(dedupEnabledFromEnv({ SPAN_LEDGER_DEDUP: 0 as never })).toBe(true);
  });

  it('reads another variable when named', () => {
    expect(dedupEnabledFromEnv({ MY_DEDUP: 'off', SPAN_LEDGER_DEDUP: '1' }, 'MY_DEDUP')).toBe(
      false,
    );
    expect(dedupEnabledFromEnv({ SPAN_LEDGER_DEDUP: 'off' }, 'MY_DEDUP')).toBe(true);
  });

  it('reads process.env when no environment is given', () => {
    process.env.SPAN_LEDGER_DEDUP = 'off';
    expect(dedupEnabledFromEnv()).toBe(false);
    expect(dedupEnabledFromEnv(null)).toBe(false);
    process.env.SPAN_LEDGER_DEDUP = 'on';
    expect(dedupEnabledFromEnv()).toBe(true);
  });
});

describe('formatPointer with parts missing', () => {
  const tail =
    'The file is unchanged since, so that earlier copy is still exact; scroll back to it.';

  it('names "this file" when there is no usable path', () => {
    for (const path of ['', undefined, 42]) {
      expect(formatPointer({ path: path as never, covered: [] })).toBe(
        `Sent earlier in this conversation: this file. ${tail}`,
      );
    }
  });

  it('leaves out the spans and the symbols when there are none to name', () => {
    expect(formatPointer({ path: 'a.ts', covered: 'L1-9' as never, symbols: 'f' as never })).toBe(
      `Sent earlier in this conversation: \`a.ts\`. ${tail}`,
    );
    expect(formatPointer({ path: 'a.ts', covered: [], symbols: ['', '  ', 7 as never] })).toBe(
      `Sent earlier in this conversation: \`a.ts\`. ${tail}`,
    );
  });

  it('names spans and symbols when there are some', () => {
    expect(
      formatPointer({
        path: 'a.ts',
        covered: [{ start: 3, end: 9 }],
        symbols: ['run', 'run', ' stop '],
      }),
    ).toBe(`Sent earlier in this conversation: \`a.ts\` L3-9 (run, stop). ${tail}`);
  });
});
