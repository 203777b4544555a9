/**
 * Bounds by ranges as well as by calls: an entry keeps at most
 * `maxRangesRetained` ranges over its records and a view at most
 * `maxViewRanges` per project, counted from the most recent record back. The
 * oldest records go first, whole; a bound only ever forgets (under-report).
 */
import { describe, expect, it } from 'vitest';
import {
  createLedger,
  createSessionStore,
  DEFAULT_LIMITS,
  type Emission,
  type Ledger,
  type LedgerLimits,
  ledgerReducer,
  READ_TOOL_LIMITS,
  sessionView,
} from '../src/index.js';
import { readSessionView, VIEW_KEY } from '../src/wire/index.js';
import { emission as emissionWith, fileEmission } from './_build.js';

/** An emission of one file holding `n` separate one-line spans (lines 1, 3, 5, …). */
function withRanges(n: number, path = 'a.ts'): Emission {
  const ranges = Array.from({ length: n }, (_, i) => ({ start: 2 * i + 1, end: 2 * i + 1 }));
  return emissionWith({
    files: [fileEmission(path, ranges, n, 'fp')],
    sourceChars: n,
    responseChars: n,
  });
}

function recordAll(limits: Partial<LedgerLimits>, sizes: number[]): Ledger {
  let ledger = createLedger(limits);
  for (const n of sizes)
    ledger = ledgerReducer(ledger, { type: 'recorded', emission: withRanges(n) });
  return ledger;
}

const retained = (ledger: Ledger) => ledger.entries[0]!.project.calls.map((c) => c.index);
const viewed = (ledger: Ledger) => sessionView(ledger).projects[0]!.calls.map((c) => c.index);

describe('the presets', () => {
  it('DEFAULT_LIMITS bounds ranges at 4096 retained and 1024 in a view', () => {
    expect(DEFAULT_LIMITS).toEqual({
      maxProjects: 4,
      maxCallsRetained: 8,
      maxFilesPerCall: 24,
      maxRangesPerFile: 24,
      maxViewCalls: 4,
      maxRangesRetained: 4096,
      maxViewRanges: 1024,
    });
  });

  it('READ_TOOL_LIMITS raises the call windows, so the range bounds bind', () => {
    expect(READ_TOOL_LIMITS).toEqual({
      maxProjects: 4,
      maxCallsRetained: 256,
      maxFilesPerCall: 8,
      maxRangesPerFile: 24,
      maxViewCalls: 256,
      maxRangesRetained: 4096,
      maxViewRanges: 1024,
    });
    expect(Object.isFrozen(READ_TOOL_LIMITS)).toBe(true);
  });

  it('a read session of 40 one-file reads is still whole in the view under READ_TOOL_LIMITS', () => {
    const store = createSessionStore(READ_TOOL_LIMITS);
    for (let i = 0; i < 40; i++) store.record(withRanges(1, `f${i}.ts`));
    expect(store.view().projects[0]!.calls).toHaveLength(40);
    const explore = createSessionStore();
    for (let i = 0; i < 40; i++) explore.record(withRanges(1, `f${i}.ts`));
    expect(explore.view().projects[0]!.calls).toHaveLength(4);
  });
});

describe('maxRangesRetained', () => {
  it('keeps records while their ranges fit, dropping the oldest whole', () => {
    // 3 + 4 + 2 = 9 > 8: the first record goes, whole.
    const ledger = recordAll({ maxRangesRetained: 8 }, [3, 4, 2]);
    expect(retained(ledger)).toEqual([2, 3]);
  });

  it('keeps every record at exactly the bound', () => {
    expect(retained(recordAll({ maxRangesRetained: 9 }, [3, 4, 2]))).toEqual([1, 2, 3]);
  });

  it('keeps no record that alone holds more than the bound, and nothing older', () => {
    const ledger = recordAll({ maxRangesRetained: 4 }, [1, 5]);
    expect(retained(ledger)).toEqual([]);
    expect(ledger.entries[0]!.project.callCount).toBe(2);
  });

  it('the store answers null for a record the bound did not keep', () => {
    const store = createSessionStore({ maxRangesRetained: 2 });
    expect(store.record(withRanges(2))?.index).toBe(1);
    expect(store.record(withRanges(3))).toBeNull();
  });

  it('counts ranges over every file of a record', () => {
    let ledger = createLedger({ maxRangesRetained: 3 });
    const two: Emission = {
      ...withRanges(2),
      files: [...withRanges(2).files, ...withRanges(2, 'b.ts').files],
    };
    ledger = ledgerReducer(ledger, { type: 'recorded', emission: withRanges(1) });
    ledger = ledgerReducer(ledger, { type: 'recorded', emission: two });
    expect(retained(ledger)).toEqual([]);
  });

  it('a record with no ranges costs nothing', () => {
    expect(retained(recordAll({ maxRangesRetained: 0 }, [0, 0, 1, 0]))).toEqual([4]);
  });
});

describe('maxViewRanges', () => {
  it('hands a view the most recent records whose ranges fit, oldest dropped whole', () => {
    const ledger = recordAll({ maxViewRanges: 5, maxViewCalls: 10 }, [2, 3, 3]);
    expect(retained(ledger)).toEqual([1, 2, 3]);
    expect(viewed(ledger)).toEqual([3]);
  });

  it('stops at the first record that does not fit, even when an older one would', () => {
    // From the newest: 1 fits, 5 does not; the 1 before it is not taken.
    expect(viewed(recordAll({ maxViewRanges: 3, maxViewCalls: 10 }, [1, 5, 1]))).toEqual([3]);
  });

  it('binds together with maxViewCalls, whichever cuts first', () => {
    expect(viewed(recordAll({ maxViewRanges: 100, maxViewCalls: 2 }, [1, 1, 1]))).toEqual([2, 3]);
    expect(viewed(recordAll({ maxViewRanges: 2, maxViewCalls: 3 }, [1, 1, 1]))).toEqual([2, 3]);
  });

  it('readSessionView applies it to a view read off the wire', () => {
    const ledger = recordAll({ maxViewCalls: 10 }, [2, 3, 3]);
    const wire = structuredClone(sessionView(ledger));
    const read = readSessionView({ [VIEW_KEY]: wire }, { maxViewRanges: 5, maxViewCalls: 10 });
    expect(read!.projects[0]!.calls.map((c) => c.index)).toEqual([3]);
    const whole = readSessionView({ [VIEW_KEY]: wire }, { maxViewCalls: 10 });
    expect(whole!.projects[0]!.calls.map((c) => c.index)).toEqual([1, 2, 3]);
  });

  it('rejects a malformed bound like the others', () => {
    expect(() => createLedger({ maxViewRanges: -1 })).toThrow(
      'createLedger(limits): limits.maxViewRanges must be a non-negative safe integer',
    );
    expect(() => createLedger({ maxRangesRetained: 1.5 })).toThrow(
      'createLedger(limits): limits.maxRangesRetained must be a non-negative safe integer',
    );
  });
});
