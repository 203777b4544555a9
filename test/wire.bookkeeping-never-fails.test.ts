/**
 * The tool path: bookkeeping never fails a tool call that already succeeded.
 * Where the library hands control to code it did not write — the host's store
 * behind `recordSafely`, the renderer's symbol naming — a fault there is
 * absorbed, and the call under-reports instead of throwing.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSessionStore, recordSafely } from '../src/index.js';
import { EMISSION_KEY } from '../src/wire/index.js';
import { fileEmission } from './_build.js';

const faults = vi.hoisted(() => ({
  reducer: false,
}));

function injected(): never {
  throw new Error('injected fault');
}

vi.mock('../src/ledger/reduce.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/ledger/reduce.js')>();
  return {
    ...real,
    applyEvent: (...args: Parameters<typeof real.applyEvent>) =>
      faults.reducer ? injected() : real.applyEvent(...args),
  };
});

const emission = {
  projectRoot: '/r',
  query: 'q',
  files: [fileEmission('a.ts', '1-4', 20, '20:ab')],
  sourceChars: 20,
  responseChars: 50,
};

afterEach(() => {
  faults.reducer = false;
});

describe('a fault in code the tool path hands control to is absorbed', () => {
  it('recordSafely answers the stripped result when the store fails, and records nothing', () => {
    const store = createSessionStore();
    faults.reducer = true;
    expect(recordSafely(store, { text: 'ok', [EMISSION_KEY]: emission })).toEqual({ text: 'ok' });
    faults.reducer = false;
    expect(store.view().projects).toEqual([]);
    expect(store.record(emission)?.index).toBe(1);
  });
});
