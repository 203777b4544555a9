/**
 * The shared store's numbers: a call's number is reserved with the same
 * compare-and-set as a record, so two processes (two stores on one backend)
 * never hand out one number twice; a record goes under the number its
 * response printed, never late (the backend is handed the deadline); a
 * bucket of one call lives five minutes; no query text is stored.
 */
import { describe, expect, it } from 'vitest';
import type { Emission } from '../src/index.js';
import {
  createMemoryBackend,
  createSharedSessionStore,
  type SharedStoreBackend,
} from '../src/shared/index.js';
import { emission as built } from './_build.js';
import { patient } from './_shared-store.js';

/** A call's emission, with the query text the store must not keep, and the number its response printed. */
function emission(printed?: { index: number; generation: string }): Emission {
  return built({ query: 'the question the agent asked', ...(printed ?? {}) });
}

/** The memory backend, with the TTL of every write kept aside. */
function ttlSpy(): { backend: SharedStoreBackend; ttls: number[] } {
  const ttls: number[] = [];
  const inner = createMemoryBackend();
  const backend: SharedStoreBackend = {
    get: (key) => inner.get(key),
    compareAndSet(key, expected, next, ttlMs, deadline) {
      ttls.push(ttlMs);
      return inner.compareAndSet(key, expected, next, ttlMs, deadline);
    },
  };
  return { backend, ttls };
}

describe('reserve on a shared backend', () => {
  it('never gives two processes one number: 100 reservations over two stores, all distinct', async () => {
    const backend = createMemoryBackend();
    const stores = [patient(backend), patient(backend)];
    const taken = await Promise.all(
      Array.from({ length: 100 }, (_, i) => stores[i % 2]!.reserve('/repo', 'ctx')),
    );
    const numbers = taken.map((r) => r!.callIndex);
    expect(new Set(numbers).size).toBe(100);
    expect(Math.max(...numbers)).toBe(100);
    expect(new Set(taken.map((r) => r!.generation)).size).toBe(1);
  });

  it('records under the printed number on either process, and drops a number recorded twice', async () => {
    const backend = createMemoryBackend();
    const [a, b] = [patient(backend), patient(backend)];
    const first = (await a.reserve('/repo', 'ctx'))!;
    const second = (await b.reserve('/repo', 'ctx'))!;
    const tag = first.generation!;
    expect((await b.record(emission({ index: 2, generation: tag }), 'ctx'))?.index).toBe(2);
    expect((await a.record(emission({ index: 1, generation: tag }), 'ctx'))?.index).toBe(1);
    expect(await a.record(emission({ index: 2, generation: tag }), 'ctx')).toBeNull();
    expect(second.callIndex).toBe(2);
    const project = await a.project('/repo', 'ctx');
    expect(project.calls.map((c) => c.index)).toEqual([2, 1]);
  });

  it('stores no query text, in the record it resolves or in the value it writes', async () => {
    const values: string[] = [];
    const inner = createMemoryBackend();
    const backend: SharedStoreBackend = {
      get: (key) => inner.get(key),
      async compareAndSet(key, expected, next, ttlMs, deadline) {
        values.push(next);
        return inner.compareAndSet(key, expected, next, ttlMs, deadline);
      },
    };
    const store = patient(backend);
    const { generation } = (await store.reserve('/repo', 'ctx'))!;
    const record = await store.record(emission({ index: 1, generation: generation! }), 'ctx');
    expect(record?.query).toBe('');
    expect(values.some((v) => v.includes('the question'))).toBe(false);
  });

  it('gives a one-call bucket the short TTL, and the idle TTL from its second number on', async () => {
    const { backend, ttls } = ttlSpy();
    const store = patient(backend, { ttlMs: 1_800_000 });
    const first = (await store.reserve('/repo', 'ctx'))!;
    await store.record(emission({ index: 1, generation: first.generation! }), 'ctx');
    await store.reserve('/repo', 'ctx');
    expect(ttls).toEqual([300_000, 300_000, 1_800_000]);
  });

  it('keeps the idle TTL for a bucket with any entry past one number, evicted ones too', async () => {
    const { backend, ttls } = ttlSpy();
    const store = patient(backend, { ttlMs: 1_800_000, limits: { maxProjects: 1 } });
    await store.reserve('/one', 'ctx');
    await store.reserve('/one', 'ctx');
    // '/two' evicts '/one' (maxProjects 1): its kept counter still says two numbers.
    await store.reserve('/two', 'ctx');
    const wide = patient(backend, { ttlMs: 1_800_000 });
    await wide.reserve('/one', 'other');
    await wide.reserve('/one', 'other');
    await wide.reserve('/two', 'other');
    expect(ttls).toEqual([300_000, 1_800_000, 1_800_000, 300_000, 1_800_000, 1_800_000]);
  });

  it('resolves null, and the call goes untracked, when the backend fails or hangs', async () => {
    const failing: SharedStoreBackend = {
      get: async () => null,
      compareAndSet: () => Promise.reject(new Error('down')),
    };
    expect(await patient(failing).reserve('/repo', 'ctx')).toBeNull();
    const hanging: SharedStoreBackend = {
      get: () => new Promise(() => {}),
      compareAndSet: () => new Promise(() => {}),
    };
    expect(await createSharedSessionStore(hanging, { timeoutMs: 20 }).reserve('/repo')).toBeNull();
    expect(await patient(createMemoryBackend()).reserve('')).toBeNull();
  });
});

describe('a record that would land late', () => {
  it('is refused by the memory backend past its deadline', async () => {
    let now = 1000;
    const backend = createMemoryBackend({ now: () => now });
    expect(await backend.compareAndSet('k', null, 'v', 60_000, 1000)).toBe(true);
    now = 1001;
    expect(await backend.compareAndSet('k', 'v', 'w', 60_000, 1000)).toBe(false);
    expect(await backend.get('k')).toBe('v');
  });

  it('is never written after the store gave up on it', async () => {
    // A backend that applies a write only once it wakes, as a stalled Redis does.
    const inner = createMemoryBackend();
    let wake!: () => void;
    const asleep = new Promise<void>((done) => {
      wake = done;
    });
    let stalled = false;
    const backend: SharedStoreBackend = {
      get: (key) => inner.get(key),
      async compareAndSet(key, expected, next, ttlMs, deadline) {
        if (stalled) await asleep;
        return inner.compareAndSet(key, expected, next, ttlMs, deadline);
      },
    };
    const store = createSharedSessionStore(backend, { timeoutMs: 50 });
    const { generation } = (await store.reserve('/repo', 'ctx'))!;
    stalled = true;
    expect(await store.record(emission({ index: 1, generation: generation! }), 'ctx')).toBeNull();
    await new Promise((r) => setTimeout(r, 60));
    wake();
    await new Promise((r) => setTimeout(r, 10));
    stalled = false;
    expect((await store.project('/repo', 'ctx')).calls).toEqual([]);
  });
});
