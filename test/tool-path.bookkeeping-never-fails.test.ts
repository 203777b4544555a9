/**
 * The tool path: bookkeeping never fails a tool call that already succeeded.
 * Where the library hands control to code it did not write — the host's store
 * behind `recordSafely`, the renderer's symbol naming — a fault there is
 * absorbed, and the call under-reports instead of throwing.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEmissionRecorder, renderMarkdown } from '../src/adapter/index.js';
import { createSessionStore, EMISSION_KEY, recordSafely } from '../src/index.js';

const faults = vi.hoisted(() => ({
  reducer: false,
  symbols: false,
}));

function injected(): never {
  throw new Error('injected fault');
}

vi.mock('../src/ledger/ledger.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/ledger/ledger.js')>();
  return {
    ...real,
    ledgerReducer: (...args: Parameters<typeof real.ledgerReducer>) =>
      faults.reducer ? injected() : real.ledgerReducer(...args),
  };
});

vi.mock('../src/dedup/symbols.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/dedup/symbols.js')>();
  return {
    ...real,
    symbolsInSpans: (...args: Parameters<typeof real.symbolsInSpans>) =>
      faults.symbols ? injected() : real.symbolsInSpans(...args),
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
  faults.reducer = false;
  faults.symbols = false;
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

  it('the renderer names no symbols when naming them fails, and still renders and records', () => {
    const render = (recorder = createEmissionRecorder({ projectRoot: '/r' })) =>
      renderMarkdown({
        plan: {
          files: [
            {
              path: 'a.ts',
              fingerprint: 'fp',
              render: 'full',
              emit: [{ start: 1, end: 1 }],
              covered: [],
            },
          ],
        },
        sources: [
          {
            path: 'a.ts',
            content: 'x',
            symbols: [{ name: 'f', kind: 'function', start: 1, end: 1 }],
          },
        ],
        recorder,
      });
    expect(render().text.split('\n')[0]).toBe('**`a.ts`** — f');
    faults.symbols = true;
    const recorder = createEmissionRecorder({ projectRoot: '/r' });
    const { text } = render(recorder);
    expect(text).toBe('**`a.ts`**\n```ts\n1\tx\n```\n');
    expect(recorder.finish(text.length).files).toEqual([
      { path: 'a.ts', ranges: [{ start: 1, end: 1 }], chars: 1, fingerprint: 'fp' },
    ]);
  });
});
