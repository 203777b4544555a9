/**
 * The small readers of the dedup layer, with exact expectations, seen through
 * the public functions: what the planner makes of threshold overrides, how the
 * environment switch is read, and the pointer sentence when its parts are
 * missing or junk.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { dedupEnabledFromEnv, fingerprint, formatPointer, planFile } from '../src/index.js';
import { callRecord, fileEmission, projectState, span as r, ranges } from './_build.js';

/** 40 lines of code, then 50 lines holding only `}`: 100 chars that carry no code. */
const code = Array.from({ length: 40 }, (_, i) => `const v${i + 1} = ${i + 1};\n`).join('');
const content = `${code}${'}\n'.repeat(50)}`;
const fp = fingerprint(content);

/** The gates' reasons for L1-`wanted` under `thresholds`, when response #1 sent L1-`held`. */
function reasons(thresholds: unknown, held: number, wanted: number): (string | undefined)[] {
  const served = fileEmission('a.ts', [r(1, held)], 1, fp);
  const prior = projectState([callRecord([served])]);
  const intended = [r(1, wanted)];
  const plan = planFile({
    path: 'a.ts',
    content,
    intended,
    prior,
    thresholds: thresholds as never,
  });
  return plan.gates.map((g) => g.reason);
}

/** The size gate's reason for L1-40 with `thresholds`, when response #1 sent L1-`held`. */
const sizeGate = (thresholds: unknown, held: number) => reasons(thresholds, held, 40)[3];

/** Whether the 100-char trivial tail after L1-40 is folded into the pointer under `thresholds`. */
const foldsTail = (thresholds: unknown) => reasons(thresholds, 40, 90)[4] === 'folded-small-delta';

describe('threshold overrides, as the planner reads them', () => {
  it.each([null, undefined, 'x', 8])('%s: the defaults (8 lines, 160 chars)', (t) => {
    expect(sizeGate(t, 8)).toBe('covered');
    expect(sizeGate(t, 7)).toBe('below-min-covered');
    expect(foldsTail(t)).toBe(true);
  });

  it('keeps each default where the override is not a number', () => {
    const t = {
      minCoveredLines: Number.NaN,
      minDeltaChars: '20',
      maxSpansInPointer: Number.NEGATIVE_INFINITY,
      maxSymbolsInPointer: null,
    };
    expect(sizeGate(t, 8)).toBe('covered');
    expect(sizeGate(t, 7)).toBe('below-min-covered');
    // Read as 20, the 100-char tail would be sent.
    expect(foldsTail(t)).toBe(true);
  });

  it('rounds down, raises to each minimum, and lets +Infinity through', () => {
    expect(sizeGate({ minCoveredLines: 3.9 }, 3)).toBe('covered');
    expect(sizeGate({ minCoveredLines: 3.9 }, 2)).toBe('below-min-covered');
    expect(sizeGate({ minCoveredLines: 0 }, 1)).toBe('covered');
    expect(sizeGate({ minCoveredLines: -3 }, 1)).toBe('covered');
    expect(sizeGate({ minCoveredLines: 20 }, 20)).toBe('covered');
    expect(sizeGate({ minCoveredLines: 20 }, 19)).toBe('below-min-covered');
    expect(sizeGate({ minCoveredLines: Number.POSITIVE_INFINITY }, 39)).toBe('below-min-covered');
    // A section held first line to last still earns its compact pointer.
    expect(sizeGate({ minCoveredLines: Number.POSITIVE_INFINITY }, 40)).toBe('covered');
    expect(foldsTail({ minDeltaChars: 100.9 })).toBe(false);
    expect(foldsTail({ minDeltaChars: 101 })).toBe(true);
    expect(foldsTail({ minDeltaChars: -5 })).toBe(false);
    expect(foldsTail({ minDeltaChars: Number.POSITIVE_INFINITY })).toBe(true);
  });

  it('-Infinity falls back to the default rather than the minimum', () => {
    expect(foldsTail({ minDeltaChars: Number.NEGATIVE_INFINITY })).toBe(true);
    expect(sizeGate({ minCoveredLines: Number.NEGATIVE_INFINITY }, 7)).toBe('below-min-covered');
  });

  it('keeps the default of a field whose getter throws', () => {
    const hostile = Object.defineProperty({ minCoveredLines: 2 }, 'minDeltaChars', {
      get: () => {
        throw new Error('hostile');
      },
    });
    expect(foldsTail(hostile)).toBe(true);
    expect(sizeGate(hostile, 2)).toBe('covered');
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
  const tail = 'The file is unchanged since.';

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
        covered: ranges('3-9'),
        symbols: ['run', 'run', ' stop '],
      }),
    ).toBe(`Sent earlier in this conversation: \`a.ts\` L3-9 (run, stop). ${tail}`);
  });
});
