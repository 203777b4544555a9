/**
 * Bookkeeping never fails a tool call, even when a lower layer has a bug: a
 * fault injected into the algebra, the sanitizer or the reducer (each of which
 * is total on its own) is absorbed by the layer above, which under-reports
 * instead of throwing.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSessionStore, EMISSION_KEY, recordSafely, takeEmission } from '../src/index.js';

const faults = vi.hoisted(() => ({
  coalesce: false,
  sanitize: false,
  reducer: false,
}));

function injected(): never {
  throw new Error('injected fault');
}

vi.mock('../src/ranges/coalesce.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/ranges/coalesce.js')>();
  return {
    ...real,
    coalesceRanges: (...args: Parameters<typeof real.coalesceRanges>) =>
      faults.coalesce ? injected() : real.coalesceRanges(...args),
  };
});

vi.mock('../src/boundary/ledger.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/boundary/ledger.js')>();
  return {
    ...real,
    sanitizeEmission: (...args: Parameters<typeof real.sanitizeEmission>) =>
      faults.sanitize ? injected() : real.sanitizeEmission(...args),
  };
});

vi.mock('../src/ledger/ledger.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/ledger/ledger.js')>();
  return {
    ...real,
    ledgerReducer: (...args: Parameters<typeof real.ledgerReducer>) =>
      faults.reducer ? injected() : real.ledgerReducer(...args),
  };
});

const emission = {
  projectRoot: '/r',
  query: 'q',
  files: [{ path: 'a.ts', ranges: [{ start: 1, end: 4 }], chars: 20, fingerprint: '20:ab' }],
  sourceChars: 20,
  responseChars: 50,
};

afterEach(() => {
  faults.coalesce = false;
  faults.sanitize = false;
  faults.reducer = false;
});

describe('a fault below is absorbed above', () => {
  it('the sanitizer keeps a file whose spans cannot be bounded, with no spans', () => {
    faults.coalesce = true;
    const { emission: taken } = takeEmission({ [EMISSION_KEY]: emission });
    expect(taken?.files).toEqual([{ path: 'a.ts', ranges: [], chars: 20, fingerprint: '20:ab' }]);
  });

  it('takeEmission still strips the carrier when sanitizing fails, and records nothing', () => {
    faults.sanitize = true;
    const taken = takeEmission({ text: 'ok', [EMISSION_KEY]: emission });
    expect(taken).toEqual({ result: { text: 'ok' }, emission: null });
  });

  it('recordSafely still answers the stripped result when the reducer fails', () => {
    const store = createSessionStore();
    faults.reducer = true;
    expect(recordSafely(store, { text: 'ok', [EMISSION_KEY]: emission })).toEqual({ text: 'ok' });
    faults.reducer = false;
    expect(store.view().projects).toEqual([]);
    expect(store.record(emission)?.index).toBe(1);
  });
});
