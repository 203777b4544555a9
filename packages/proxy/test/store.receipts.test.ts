/**
 * A record has a receipt: the store hands one out for every record it
 * writes, and undoing it takes back exactly that record — on the ledger in
 * this process and on the shared store alike. A ticket records under its own
 * number, whatever number the emission carries, and gives the number back
 * when the store cannot confirm the record in time.
 */
import { DEFAULT_LIMITS } from 'span-ledger';
import { createMemoryBackend, type SharedStoreBackend } from 'span-ledger/shared';
import { describe, expect, it } from 'vitest';
import { cue } from '../../../test/e2e/_faults.js';
import { localStore, type ProxyStore, sharedStore } from '../src/store.js';

const ROOT = '/repo';
const CONTEXT = 'm:a-context-of-the-receipt-tests';

function emission(path: string) {
  return {
    projectRoot: ROOT,
    query: 'show',
    files: [
      { path, ranges: [{ start: 1, end: 10 }], chars: 100, fingerprint: '100:0123456789abcdef' },
    ],
    sourceChars: 100,
    responseChars: 120,
  };
}

const held = async (store: ProxyStore) =>
  ((await store.project(ROOT, CONTEXT))?.calls ?? []).map((c) => `${c.index}:${c.files[0]?.path}`);

describe.each([
  ['localStore', () => localStore(DEFAULT_LIMITS)],
  ['sharedStore', () => sharedStore(createMemoryBackend(), DEFAULT_LIMITS)],
])('receipts of %s', (_, make) => {
  it('undoes exactly the record it was given for, once', async () => {
    const store = make();
    const first = await store.reserve(ROOT, CONTEXT);
    const second = await store.reserve(ROOT, CONTEXT);
    const one = await first!.record(emission('a.ts'));
    const two = await second!.record(emission('b.ts'));
    expect(await held(store)).toEqual(['1:a.ts', '2:b.ts']);
    await one!.undo();
    expect(await held(store)).toEqual(['2:b.ts']);
    await one!.undo();
    expect(await held(store)).toEqual(['2:b.ts']);
    await two!.undo();
    expect(await held(store)).toEqual([]);
  });

  it('records a ticket under its own number, never the one the emission names', async () => {
    const store = make();
    const ticket = await store.reserve(ROOT, CONTEXT);
    const receipt = await ticket!.record({ ...emission('a.ts'), index: 7 });
    expect(receipt).not.toBeNull();
    expect(await held(store)).toEqual([`${ticket!.callIndex}:a.ts`]);
  });

  it('gives a released number back: nothing can be recorded under it', async () => {
    const store = make();
    const ticket = await store.reserve(ROOT, CONTEXT);
    await ticket!.release();
    expect(await ticket!.record(emission('a.ts'))).toBeNull();
    expect(await held(store)).toEqual([]);
  });
});

describe('a record the shared store could not confirm in time', () => {
  it('gives its number back, so a write that landed after all is not left without a receipt', async () => {
    const inner = createMemoryBackend();
    let slowNext = false;
    let landedLate = false;
    const reply = cue();
    // The write applies in time (Redis ran it); its reply comes only after
    // the store gave up on it: a busy server, or a clock ahead of the server's.
    const backend: SharedStoreBackend = {
      get: (key) => inner.get(key),
      async compareAndSet(...args) {
        const slow = slowNext;
        slowNext = false;
        const applied = await inner.compareAndSet(...args);
        if (slow) {
          landedLate = applied;
          await reply.fired;
        }
        return applied;
      },
    };
    const store = sharedStore(backend, DEFAULT_LIMITS);
    const ticket = await store.reserve(ROOT, CONTEXT);
    slowNext = true;
    expect(await ticket!.record(emission('a.ts'))).toBeNull();
    reply.fire();
    expect(landedLate).toBe(true);
    expect(await held(store)).toEqual([]);
  });
});
